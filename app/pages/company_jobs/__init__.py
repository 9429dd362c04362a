"""'Minhas Vagas' of the company dashboard, one module a part.

- state: `CompanyJobsState`, put together from the mixins below, with the page load, the actions on
  a job (archive, restore, reopen, close, delete, duplicate) and the confirmation.
- lists_state: `JobListsMixin`, the three lists, the search and the company check the others use.
- publish_state: `PublishFormMixin`, the 'Publicar Nova Vaga' form's state and publishing.
- applicants_state: `ApplicantsMixin`, the applications and freelancer profile dialogs' state.
- job_list: the search, the Ativas/Arquivadas tabs, each job's actions, the close/delete
  confirmation and `jobs_tab`, the whole tab.
- publish_form: the 'Publicar Nova Vaga' dialog.
- applicants: the applications dialog, the applicant cards and the freelancer profile dialog.
"""

from app.pages.company_jobs.job_list import jobs_tab
from app.pages.company_jobs.state import CompanyJobsState

__all__ = ["CompanyJobsState", "jobs_tab"]
