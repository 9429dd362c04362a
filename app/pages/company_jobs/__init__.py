"""'Minhas Vagas' of the company dashboard, one module a part.

- state: `CompanyJobsState` (the jobs, the dialogs' data and every handler) and its messages.
- job_list: the search, the Ativas/Arquivadas tabs, each job's actions, the close/delete
  confirmation and `jobs_tab`, the whole tab.
- publish_form: the 'Publicar Nova Vaga' dialog.
- applicants: the applications dialog, the applicant cards and the freelancer profile dialog.
"""

from app.pages.company_jobs.job_list import jobs_tab
from app.pages.company_jobs.state import CompanyJobsState

__all__ = ["CompanyJobsState", "jobs_tab"]
