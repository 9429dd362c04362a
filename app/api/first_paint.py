"""The first paint of a job page: the vaga as plain HTML, there before any script runs.

Pages with a variable path (/jobs/12) share one prebuilt shell that says 'Carregando...' until the
app's scripts have loaded and its websocket has brought the data. That shell is also all a crawler
or a link preview ever reads. app/api/public_pages.py writes this article into the HTML answer
instead, as the first child of <body>:

- React 19 skips unexpected elements among <body>'s children when it hydrates, so the article
  stays in the page without upsetting hydration.
- While the article is in the page, a style rule hides the app's root, so the person reads the
  vaga (and can follow its links) from the first paint instead of a loading line.
- When the job page has its data, it removes the article (`REMOVE_SCRIPT`, run by the page), and
  the app takes over in the same place.
"""

import html

from core import routes
from core.catalog import BRING_LABEL
from services.jobs.job_detail import JobDetail

ELEMENT_ID = "first-paint"
# The article and the server's <title> go together: the app's own title (the vaga's too) takes over.
REMOVE_SCRIPT = f"document.querySelectorAll('#{ELEMENT_ID}, title[data-seo]').forEach((e) => e.remove())"
NOT_INFORMED = "Não informada"

STYLE = f"""<style>
body:has(> #{ELEMENT_ID}) > .radix-themes {{ display: none; }}
#{ELEMENT_ID} {{ font-family: var(--default-font-family, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  color: var(--gray-12, #1c2024); background: var(--color-background, #fff); line-height: 1.5; }}
#{ELEMENT_ID} .fp-bar {{ background: var(--gray-1, #fcfcfd); border-bottom: 1px solid var(--gray-5, #e0e1e6); }}
#{ELEMENT_ID} .fp-bar a {{ display: block; max-width: 1200px; margin: 0 auto; padding: 0.75rem 1rem;
  font-size: 1.25rem; font-weight: 700; color: var(--gray-12, #1c2024); text-decoration: none; }}
#{ELEMENT_ID} main {{ max-width: 1200px; margin: 0 auto; padding: 1.5rem 1rem 3rem; }}
#{ELEMENT_ID} h1 {{ font-size: 2.25rem; line-height: 1.2; margin: 0.75rem 0 0.5rem; }}
#{ELEMENT_ID} h2 {{ font-size: 1.25rem; margin: 1.5rem 0 0.5rem; }}
#{ELEMENT_ID} a {{ color: var(--accent-11, #3a5bc7); }}
#{ELEMENT_ID} .fp-muted {{ color: var(--gray-11, #60646c); }}
#{ELEMENT_ID} dl {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem;
  padding: 1rem; margin: 1rem 0; border: 1px solid var(--gray-5, #e0e1e6); border-radius: 6px; }}
#{ELEMENT_ID} dt {{ font-size: 0.75rem; font-weight: 500; color: var(--gray-11, #60646c); }}
#{ELEMENT_ID} dd {{ margin: 0; }}
#{ELEMENT_ID} .fp-description {{ white-space: pre-wrap; }}
#{ELEMENT_ID} .fp-apply {{ display: inline-block; margin-top: 1.5rem; padding: 0.6rem 1.2rem; border-radius: 6px;
  background: var(--accent-9, #3e63dd); color: #fff; text-decoration: none; font-weight: 500; }}
</style>"""


def _fact(label: str, value: str) -> str:
    return f"<div><dt>{html.escape(label)}</dt><dd>{html.escape(value)}</dd></div>"


def job_article(job: JobDetail, product_name: str) -> str:
    """The vaga's first paint: the brand bar, title, company, facts, description and the way to apply.

    Args:
        job: The public vaga (services.jobs.get_public_job).
        product_name: The product's name, for the brand bar.

    Returns:
        The escaped HTML of the article, with its style rules.
    """
    e = html.escape
    shift = job["shift"] or job["date_needed"] or NOT_INFORMED
    facts = "".join(
        (
            _fact("Local", job["location"]),
            _fact("Valor por hora", job["pay"]),
            _fact("Total estimado", job["total"]) if job.get("total") else "",
            _fact("Turno", shift),
            _fact("Endereço do turno", job["address"] or NOT_INFORMED),
            _fact(BRING_LABEL, job["bring"]) if job.get("bring") else "",
            _fact("Pagamento", job["payment"]),  # the vaga's own: direct or guaranteed, as on its page
            _fact("Vagas disponíveis", str(job["positions"])),
            _fact("Postado em", job["posted"]),
        )
    )
    skills = ", ".join(job["skills"]) or "Nenhuma habilidade específica informada."
    rating = f"★ {job['company_rating']}" if job["company_rating"] else ""
    punctual = f"Empresa Pontual: {job['punctual_summary']}" if job.get("punctual") else ""
    byline = " · ".join(part for part in (job["category_label"], job["company"], rating) if part)
    apply_href = routes.login_with_next(routes.job_detail(job["id"]))
    return (
        f'<div id="{ELEMENT_ID}">{STYLE}'
        f'<div class="fp-bar"><a href="{routes.HOME}">{e(product_name)}</a></div>'
        "<main>"
        f'<a href="{routes.JOBS}">Voltar para as vagas</a>'
        f"<h1>{e(job['title'])}</h1>"
        f'<p class="fp-muted">{e(byline)}</p>'
        + (f'<p class="fp-muted" id="fp-punctual">{e(punctual)}</p>' if punctual else "")
        + f"<dl>{facts}</dl>"
        f'<p class="fp-muted">{e(job["payment_note"])}</p>'
        f'<h2>Descrição</h2><p class="fp-description">{e(job["description"])}</p>'
        f"<h2>Habilidades necessárias</h2><p>{e(skills)}</p>"
        f'<a class="fp-apply" href="{e(apply_href)}">Entre para se candidatar</a>'
        "</main></div>"
    )
