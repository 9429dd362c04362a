"""Institutional and legal pages: /about, /terms, /privacy, /cookies and /como-calculamos."""

import reflex as rx

from app.layout import public_page
from components.content import MUTED, bullet_list, card_grid, feature_card, legal_page, paragraph, section
from components.links import link_button
from components.ui import page_heading
from core import routes
from core.settings import get_settings

TERMS_UPDATED = "10/04/2025"
PRIVACY_UPDATED = "1 de abril de 2025"
COOKIES_UPDATED = "1 de abril de 2025"

VALUES = [
    ("handshake", "Confiança", "Relações transparentes entre empresas, profissionais e a plataforma."),
    ("heart-handshake", "Respeito", "Tratamos cada pessoa com dignidade, sem discriminação de qualquer tipo."),
    ("award", "Qualidade", "Valorizamos o trabalho bem feito e o atendimento de excelência."),
    ("zap", "Agilidade", "Empresas encontram profissionais e profissionais encontram trabalho sem burocracia."),
    ("shield-check", "Segurança", "Protegemos os dados e a privacidade de quem usa a plataforma."),
    ("users", "Inclusão", "Abrimos portas para profissionais de todas as regiões, idades e trajetórias."),
    ("lightbulb", "Inovação", "Usamos a tecnologia para simplificar a contratação temporária."),
]


@public_page(routes.ABOUT, "Sobre nós")
def about_page() -> rx.Component:
    """Mission, vision and seven values."""
    name = get_settings().product_name
    return rx.box(
        page_heading(
            f"Sobre o {name}",
            "Conectamos empresas de hotelaria, gastronomia, restaurantes e eventos a freelancers qualificados.",
        ),
        section(
            "Quem somos",
            paragraph(
                f"O {name} nasceu para resolver um problema comum no setor de serviços: encontrar, em pouco tempo, "
                "profissionais de confiança para turnos, eventos e picos de demanda. Do outro lado, milhares de "
                "profissionais procuram trabalhos flexíveis perto de casa. Nós aproximamos os dois."
            ),
            card_grid(
                feature_card(
                    "target",
                    "Missão",
                    "Facilitar a contratação temporária, conectando empresas a profissionais qualificados de forma "
                    "simples, rápida e segura.",
                ),
                feature_card(
                    "telescope",
                    "Visão",
                    "Ser a principal plataforma de trabalho temporário do Brasil nos setores de hotelaria, "
                    "gastronomia e eventos, reconhecida pela confiança de empresas e profissionais.",
                ),
                columns=2,
            ),
            section_id="quem-somos",
        ),
        section(
            "Nossos valores",
            card_grid(*[feature_card(*value) for value in VALUES], columns=4),
            section_id="valores",
        ),
        rx.card(
            rx.vstack(
                rx.heading("Faça parte", as_="h2", size="6"),
                rx.text("Publique sua primeira vaga ou encontre seu próximo trabalho.", color=MUTED),
                rx.flex(
                    link_button("Sou empresa", href=routes.register("client"), link_id="sobre-empresa"),
                    link_button(
                        "Sou freelancer",
                        href=routes.register("freelancer"),
                        variant="outline",
                        link_id="sobre-freelancer",
                    ),
                    link_button("Fale conosco", href=routes.CONTACT, variant="soft", link_id="sobre-contato"),
                    gap="0.75rem",
                    wrap="wrap",
                ),
                spacing="3",
            ),
            size="3",
            width="100%",
            margin_top="1rem",
        ),
        width="100%",
    )


def _links(*targets: tuple[str, str]) -> rx.Component:
    """A row of related links inside a legal text."""
    return rx.flex(
        *[rx.link(text, href=href, weight="medium") for text, href in targets],
        gap="1.5rem",
        wrap="wrap",
        margin_bottom="0.75rem",
    )


def _terms_parts(name: str, email: str) -> list:
    return [
        (
            "Aceitação dos termos",
            [
                f"Ao criar uma conta ou usar o {name}, você declara que leu, entendeu e aceita estes Termos de Uso "
                "e a Política de Privacidade. Se não concordar com alguma condição, não utilize a plataforma.",
                "Para se cadastrar, é preciso ter pelo menos 18 anos e fornecer informações verdadeiras, completas "
                "e atualizadas.",
            ],
        ),
        (
            "O que a plataforma faz",
            [
                f"O {name} é uma plataforma de intermediação que aproxima empresas (contratantes) e profissionais "
                "autônomos (freelancers) para a prestação de serviços temporários e presenciais, principalmente "
                "nos setores de hotelaria, gastronomia, restaurantes e eventos.",
                f"O {name} não é empregador, agência de emprego nem parte dos contratos celebrados entre "
                "empresas e freelancers, e não garante que uma vaga será preenchida ou que um trabalho será "
                "oferecido.",
            ],
        ),
        (
            "Ausência de vínculo empregatício",
            [
                "A relação entre empresa e freelancer é de prestação de serviços autônoma e eventual. O uso da "
                "plataforma não cria vínculo empregatício, societário ou de representação entre as partes, nem "
                f"entre qualquer delas e o {name}.",
                "Cada parte é responsável pelo cumprimento das suas obrigações legais, fiscais e previdenciárias.",
            ],
        ),
        (
            "Contas e segurança",
            [
                "Você é responsável pela confidencialidade da sua senha e por toda atividade realizada na sua "
                "conta. Avise-nos imediatamente se suspeitar de uso não autorizado.",
                "Cada pessoa ou empresa deve manter uma única conta, e os dados do perfil devem corresponder à "
                "realidade.",
            ],
        ),
        (
            "Publicação de vagas e candidaturas",
            [
                "As empresas devem descrever as vagas com clareza, incluindo função, data, local, valor oferecido e "
                "benefícios, e não podem publicar vagas ilegais, discriminatórias ou enganosas.",
                "Os freelancers devem se candidatar apenas a trabalhos que tenham condições de realizar e manter "
                "as informações do perfil atualizadas.",
            ],
        ),
        (
            "Contrato de prestação de serviços",
            [
                "Ao aceitar uma candidatura, a plataforma poderá gerar automaticamente um contrato de prestação de "
                "serviços com as condições combinadas (função, data, local, duração e valor), que as partes "
                "poderão revisar antes do início do trabalho.",
                "Empresa e freelancer são os únicos responsáveis pelo cumprimento do que foi combinado entre eles.",
            ],
        ),
        (
            "Pagamentos, custódia e comissão",
            [
                "O valor do trabalho é combinado entre a empresa e o freelancer. Quando o pagamento for feito pela "
                "plataforma, ele poderá passar por um sistema de custódia (escrow): a empresa paga antecipadamente "
                "e o valor é liberado ao freelancer depois que a entrega do serviço for confirmada.",
                f"O {name} poderá reter uma comissão sobre os valores intermediados, sempre informada e acordada "
                "previamente, antes da contratação.",
                "Os planos de assinatura para empresas seguem as condições publicadas na página de planos, "
                "incluindo o período de teste, a garantia de reembolso e as regras de cancelamento.",
            ],
        ),
        (
            "Avaliações e conduta",
            [
                "Depois de um trabalho, empresa e freelancer podem avaliar um ao outro. As avaliações devem ser "
                "honestas, respeitosas e relacionadas ao trabalho realizado.",
                "É proibido usar a plataforma para assédio, discriminação, fraude, spam, coleta indevida de dados "
                "ou qualquer atividade ilegal.",
            ],
        ),
        (
            "Privacidade e proteção de dados",
            [
                "Tratamos os dados pessoais de acordo com a Lei Geral de Proteção de Dados Pessoais (Lei nº "
                "13.709/2018, LGPD). Os detalhes sobre quais dados coletamos, para que os usamos e como exercer "
                "seus direitos estão na Política de Privacidade e na Política de Cookies.",
                _links(("Política de Privacidade", routes.PRIVACY), ("Política de Cookies", routes.COOKIES)),
            ],
        ),
        (
            "Penalidades",
            [
                "O descumprimento destes Termos poderá levar, conforme a gravidade e a reincidência, às "
                "seguintes medidas, sem prejuízo de outras previstas em lei:",
                [
                    "advertência;",
                    "suspensão temporária da conta;",
                    "exclusão definitiva da conta.",
                ],
                "Sempre que possível, o usuário será informado do motivo da medida e poderá apresentar sua defesa "
                f"pelo email {email}.",
            ],
        ),
        (
            "Limitação de responsabilidade",
            [
                f"O {name} se empenha para manter a plataforma disponível e segura, mas não responde pela conduta "
                "de empresas e freelancers, pela qualidade dos serviços prestados entre eles nem por "
                "indisponibilidades causadas por terceiros ou por caso fortuito e força maior.",
            ],
        ),
        (
            "Alterações dos termos",
            [
                "Podemos alterar estes Termos a qualquer momento. As alterações passam a valer com a publicação da "
                "nova versão nesta página, com a data de atualização indicada no topo. Mudanças relevantes também "
                "serão comunicadas por email ou por aviso na plataforma.",
                "Se continuar a usar a plataforma depois da publicação, você estará de acordo com a nova versão.",
            ],
        ),
        (
            "Lei aplicável e foro",
            [
                "Estes Termos são regidos pelas leis da República Federativa do Brasil.",
                "Fica eleito o foro da Comarca de São Paulo, Estado de São Paulo, para resolver qualquer "
                "controvérsia relacionada a estes Termos, ressalvado o direito do consumidor de propor ação no "
                "foro do seu domicílio.",
            ],
        ),
        (
            "Contato",
            [
                f"Dúvidas sobre estes Termos podem ser enviadas para {email} ou pela nossa página de contato.",
                _links(("Página de contato", routes.CONTACT)),
            ],
        ),
    ]


@public_page(routes.TERMS, "Termos de uso")
def terms_page() -> rx.Component:
    """The full terms of use (docs/product/site.md §10)."""
    settings = get_settings()
    name = settings.product_name
    return legal_page(
        "Termos de Uso",
        TERMS_UPDATED,
        [f"Estes Termos de Uso regulam o acesso e o uso do {name} por empresas, freelancers e visitantes."],
        _terms_parts(name, settings.contact_email),
    )


def _privacy_parts(name: str, privacy_email: str) -> list:
    return [
        (
            "Quem é o controlador",
            [
                f"O {name} é o controlador dos dados pessoais tratados na plataforma, nos termos da Lei Geral de "
                "Proteção de Dados Pessoais (Lei nº 13.709/2018, LGPD).",
                f"Nosso encarregado pelo tratamento de dados pessoais pode ser contatado pelo email {privacy_email}.",
            ],
        ),
        (
            "Dados que coletamos",
            [
                "Coletamos apenas os dados necessários para o funcionamento da plataforma:",
                [
                    "Dados de cadastro: nome, email, senha (guardada apenas de forma criptografada) e tipo de conta.",
                    "Dados de perfil: telefone, endereço, foto, biografia, profissão, habilidades, experiência, "
                    "site, redes sociais e, para empresas, nome e setor da empresa.",
                    "Dados de pagamento: plano contratado e histórico de cobranças. Os dados do cartão são "
                    "processados pelo provedor de pagamentos e não ficam armazenados conosco.",
                    "Mensagens trocadas no chat entre empresas e freelancers.",
                    "Avaliações feitas e recebidas.",
                    "Dados de uso: vagas publicadas, candidaturas enviadas, contratações e datas de acesso.",
                    "Dados do dispositivo: endereço IP das tentativas de login e informações técnicas enviadas "
                    "pelo navegador.",
                    "Localização aproximada: a cidade que você informa ou escolhe nos filtros. Não coletamos "
                    "localização precisa por GPS.",
                ],
            ],
        ),
        (
            "Para que usamos os dados",
            [
                [
                    "Criar e manter sua conta e autenticar seu acesso.",
                    "Publicar vagas, exibir perfis e permitir candidaturas, contratações, chat e avaliações.",
                    "Processar assinaturas e pagamentos.",
                    "Enviar emails de confirmação, recuperação de senha e notificações sobre a sua conta.",
                    "Prevenir fraudes e abusos, como tentativas repetidas de login.",
                    "Cumprir obrigações legais e responder a solicitações de autoridades.",
                ]
            ],
        ),
        (
            "Bases legais",
            [
                "Tratamos dados pessoais com base na execução de contrato (para prestar o serviço que você "
                "solicitou), no cumprimento de obrigação legal, no legítimo interesse (por exemplo, segurança e "
                "prevenção a fraudes) e, quando exigido, no seu consentimento, que pode ser revogado a qualquer "
                "momento.",
            ],
        ),
        (
            "Compartilhamento",
            [
                "Não vendemos dados pessoais. Compartilhamos dados apenas quando necessário:",
                [
                    "entre empresa e freelancer, na medida do necessário para a candidatura e a contratação "
                    "(por exemplo, o perfil do candidato e as mensagens do chat);",
                    "com fornecedores que nos ajudam a operar a plataforma, como hospedagem, envio de emails e "
                    "processamento de pagamentos, sob contrato e com obrigação de confidencialidade;",
                    "com autoridades, quando houver obrigação legal ou ordem judicial.",
                ],
            ],
        ),
        (
            "Armazenamento e segurança",
            [
                "Adotamos medidas técnicas e organizacionais para proteger os dados, como senhas armazenadas com "
                "criptografia de mão única, sessões com cookie protegido (HttpOnly) e controle de acesso: cada "
                "conversa só pode ser lida pelos seus participantes.",
                "Mantemos os dados enquanto sua conta estiver ativa e, depois disso, apenas pelo prazo necessário "
                "para cumprir obrigações legais.",
            ],
        ),
        (
            "Seus direitos",
            [
                "Nos termos do artigo 18 da LGPD, você pode solicitar a qualquer momento:",
                [
                    "a confirmação da existência de tratamento e o acesso aos seus dados;",
                    "a correção de dados incompletos, inexatos ou desatualizados;",
                    "a anonimização, o bloqueio ou a eliminação de dados desnecessários ou excessivos;",
                    "a portabilidade dos dados a outro fornecedor de serviço;",
                    "a eliminação dos dados tratados com base no seu consentimento;",
                    "informações sobre com quem compartilhamos seus dados;",
                    "informações sobre a possibilidade de não dar consentimento e suas consequências;",
                    "a revogação do consentimento.",
                ],
                "Nas configurações da sua conta, você pode baixar uma cópia dos seus dados e excluir sua conta. "
                f"Para os demais pedidos, escreva para {privacy_email}. Você também pode apresentar reclamação à "
                "Autoridade Nacional de Proteção de Dados (ANPD).",
            ],
        ),
        (
            "Cookies",
            [
                "Usamos um único cookie, essencial, para manter sua sessão. Os detalhes estão na Política de Cookies.",
                _links(("Política de Cookies", routes.COOKIES)),
            ],
        ),
        (
            "Menores de idade",
            ["A plataforma é destinada a maiores de 18 anos e não coleta intencionalmente dados de menores."],
        ),
        (
            "Alterações desta política",
            [
                "Podemos atualizar esta política. A versão vigente é sempre a publicada nesta página, com a data "
                "de atualização indicada no topo; mudanças relevantes serão comunicadas por email ou na "
                "plataforma.",
            ],
        ),
    ]


@public_page(routes.PRIVACY, "Política de privacidade")
def privacy_page() -> rx.Component:
    """The privacy policy: data collected and LGPD rights."""
    settings = get_settings()
    name = settings.product_name
    return legal_page(
        "Política de Privacidade",
        PRIVACY_UPDATED,
        [
            f"Esta política explica como o {name} coleta, usa, compartilha e protege os dados pessoais de "
            "empresas, freelancers e visitantes, e como você pode exercer seus direitos."
        ],
        _privacy_parts(name, settings.privacy_email),
    )


_UNUSED = "Não utilizado"


def cookie_rows() -> list[tuple[str, str, str, str, str]]:
    """(name, type, purpose, duration, status) of each cookie the policy lists (docs/product/site.md §10)."""
    settings = get_settings()
    return [
        (
            settings.session_cookie_name,
            "Essencial",
            "Mantém você conectado com segurança. É HttpOnly: não pode ser lido por scripts da página.",
            f"Duração da sessão (até {settings.session_hours} horas, ou {settings.remember_days} dias com "
            "'Lembrar de mim')",
            "Em uso",
        ),
        (
            "user_preferences",
            "Preferências",
            "Lembraria escolhas como tema e idioma neste navegador.",
            "1 ano",
            _UNUSED,
        ),
        ("analytics_id", "Análise", "Mediria, de forma agregada, como as páginas são usadas.", "2 anos", _UNUSED),
        ("ads_id", "Publicidade", "Mostraria anúncios relevantes em outros sites.", "3 meses", _UNUSED),
    ]


COOKIE_HEADERS = ("Cookie", "Tipo", "Finalidade", "Duração", "Situação atual")


def _status_badge(status: str) -> rx.Component:
    return rx.badge(status, color_scheme="green" if status == "Em uso" else "gray", size="2", high_contrast=True)


def cookie_table() -> rx.Component:
    """The cookie table from 768 px; below it, one card per cookie with the same facts."""
    rows = cookie_rows()
    table = rx.table.root(
        rx.table.header(
            rx.table.row(*[rx.table.column_header_cell(text, scope="col") for text in COOKIE_HEADERS]),
        ),
        rx.table.body(
            *[
                rx.table.row(
                    rx.table.row_header_cell(rx.code(name, color_scheme="gray"), scope="row"),
                    rx.table.cell(kind),
                    rx.table.cell(purpose),
                    rx.table.cell(duration),
                    rx.table.cell(_status_badge(status), white_space="nowrap"),
                )
                for name, kind, purpose, duration, status in rows
            ],
        ),
        variant="surface",
        width="100%",
    )
    cards = rx.vstack(
        *[
            rx.card(
                rx.vstack(
                    rx.hstack(
                        rx.heading(rx.code(name, color_scheme="gray"), as_="h3", size="3"),
                        _status_badge(status),
                        justify="between",
                        align="center",
                        wrap="wrap",
                        width="100%",
                    ),
                    rx.el.dl(
                        *[
                            item
                            for label, value in (("Tipo", kind), ("Finalidade", purpose), ("Duração", duration))
                            for item in (
                                rx.el.dt(label, style={"fontWeight": "600", "marginTop": "0.5rem"}),
                                rx.el.dd(value, style={"margin": 0, "color": rx.color("gray", 11)}),
                            )
                        ],
                    ),
                    spacing="1",
                    width="100%",
                ),
                width="100%",
            )
            for name, kind, purpose, duration, status in rows
        ],
        spacing="3",
        width="100%",
    )
    return rx.box(
        rx.box(table, display=["none", "none", "block"]),
        rx.box(cards, display=["block", "block", "none"]),
        id="tabela-cookies",
        width="100%",
    )


@public_page(routes.COOKIES, "Política de cookies")
def cookies_page() -> rx.Component:
    """What cookies are, the cookie table, and which ones the product sets today."""
    settings = get_settings()
    name = settings.product_name
    session_cookie = settings.session_cookie_name
    return rx.box(
        page_heading("Política de Cookies", f"Última atualização: {COOKIES_UPDATED}"),
        paragraph(
            "Cookies são pequenos arquivos que um site guarda no seu navegador para lembrar informações entre "
            "uma visita e outra. Esta página explica quais cookies podem ser usados e quais usamos hoje."
        ),
        section(
            "O que usamos hoje",
            paragraph(
                f"Atualmente, o {name} define apenas um cookie: {session_cookie}, essencial para manter você "
                "conectado. Ele é HttpOnly (scripts da página não conseguem lê-lo), é enviado apenas ao nosso "
                "próprio site e é apagado quando você sai da conta. Ele só é criado quando você faz login."
            ),
            paragraph(
                "Além disso, o site guarda no navegador, sem usar cookies, apenas o necessário para funcionar: no "
                "armazenamento da sessão (apagado ao fechar a aba), um identificador técnico da conexão, a posição "
                "de rolagem das páginas e avisos temporários, como a confirmação de login; no armazenamento local, "
                "a sua preferência de tema (claro, escuro ou do sistema). Nada disso é enviado a terceiros."
            ),
            paragraph(
                "Não usamos hoje cookies de preferências, de análise nem de publicidade. Se passarmos a usá-los, "
                "pediremos seu consentimento antes (para análise e publicidade) e atualizaremos esta página."
            ),
            section_id="em-uso",
        ),
        section(
            "Cookies que podem ser usados",
            rx.text("A tabela mostra cada cookie previsto, sua duração e se ele está em uso.", color=MUTED),
            cookie_table(),
            section_id="tabela",
        ),
        section(
            "Como gerenciar cookies",
            paragraph(
                "Você pode apagar ou bloquear cookies nas configurações do seu navegador. Se bloquear o cookie de "
                "sessão, não será possível entrar na sua conta, mas as páginas públicas continuam funcionando."
            ),
            section_id="gerenciar",
        ),
        section(
            "Dúvidas",
            rx.text(
                "Saiba mais na nossa ",
                rx.link("Política de Privacidade", href=routes.PRIVACY),
                f" ou escreva para {settings.privacy_email}.",
            ),
            section_id="duvidas",
        ),
        max_width="900px",
        width="100%",
    )


@public_page(routes.HOW_WE_CALCULATE, "Como calculamos")
def how_we_calculate_page() -> rx.Component:
    """How comparecimento, pontualidade and faltas are computed, and how to ask for a human review (LGPD art. 20)."""
    return rx.box(
        page_heading(
            "Como calculamos",
            "Comparecimento, pontualidade e faltas: o que entra em cada número e como pedir uma revisão humana.",
        ),
        section(
            "Comparecimento e pontualidade",
            bullet_list(
                [
                    "Contamos os seus últimos 20 turnos que aconteceram ou deveriam ter acontecido: com registro "
                    "de chegada, ou marcados como 'Não compareceu'.",
                    "Comparecimento: a parte desses turnos com registro de chegada.",
                    "Pontualidade: a parte das chegadas registradas até 5 minutos depois do início do turno. Um "
                    "registro manual ('Não consigo registrar') vale pelo horário do servidor.",
                    "Os números aparecem no seu perfil a partir de 3 turnos, por exemplo: 'Comparecimento 95% · "
                    "Pontualidade 90% · 20 turnos'.",
                ]
            ),
            section_id="numeros",
        ),
        section(
            "Faltas",
            bullet_list(
                [
                    "Cancelar até 15 minutos depois de ser contratado, ou mais de 48 horas antes do início: nenhuma "
                    "falta.",
                    "Cancelar entre 48 e 12 horas antes: 1 falta. Menos de 12 horas antes: 2 faltas.",
                    "Não confirmar a presença e a empresa cancelar sem custo: 1 falta. Não comparecer: 3 faltas.",
                    "Com 3 faltas ativas, você fica 14 dias sem novas candidaturas; os turnos já confirmados "
                    "continuam.",
                    "Uma falta deixa de contar depois de 90 dias, e 8 turnos pagos seguidos removem a mais antiga.",
                    "As faltas são privadas: só você as vê. As empresas veem apenas comparecimento e pontualidade.",
                ]
            ),
            section_id="faltas",
        ),
        section(
            "Selo Empresa Pontual",
            bullet_list(
                [
                    "Olhamos os turnos da empresa que começaram nos últimos 90 dias e aconteceram, com as horas "
                    "aprovadas (a partir de 5 turnos). Turnos cancelados pela empresa nunca contam a favor.",
                    "Cancelamentos tardios (os que geram taxa) em até 5% dos turnos realizados mais esses "
                    "cancelamentos. Cancelar com mais de 24 horas de antecedência não conta nem a favor nem contra.",
                    "Horas respondidas rápido: a mediana entre o envio das horas e a aprovação (ou o ajuste) da "
                    "empresa é de até 24 horas; uma aprovação automática conta 48 horas, e horas ainda sem "
                    "resposta depois de 48 horas contam o tempo de espera.",
                    "Ajustes de horas revertidos (contestados e decididos a favor do profissional) em até 10%.",
                    "Nenhuma disputa aberta.",
                    "Recalculamos quando um turno da empresa muda e uma vez por dia. A empresa vê em 'Minha equipe' "
                    "o que falta para ter o selo.",
                ]
            ),
            section_id="selo",
        ),
        section(
            "Revisão humana",
            paragraph(
                "Você pode pedir que uma pessoa da equipe Turno revise qualquer falta, ausência ou suspensão em até "
                "7 dias, em 'Meus Turnos'. Conforme o art. 20 da LGPD, você tem direito a pedir a revisão de "
                "decisões tomadas com base em tratamento automatizado de dados. A decisão e o motivo ficam "
                "registrados na linha do tempo do turno, visíveis para você e para a empresa."
            ),
            section_id="revisao",
        ),
    )


@public_page(routes.BOND_GUIDE, "Termômetro de vínculo")
def bond_guide_page() -> rx.Component:
    """What the 'Termômetro de vínculo' measures, why (CLT art. 3), the contrato intermitente, and how it is computed."""
    return rx.box(
        page_heading(
            "Termômetro de vínculo",
            "Quando chamar sempre a mesma pessoa começa a parecer um emprego, e o que fazer.",
        ),
        section(
            "Por que existe",
            paragraph(
                "Um trabalho avulso não é emprego. Mas a CLT (art. 3º) reconhece vínculo de emprego quando o "
                "trabalho é feito pela mesma pessoa (pessoalidade), com regularidade (habitualidade, ou não "
                "eventualidade), sob as ordens da empresa (subordinação) e mediante pagamento (onerosidade). "
                "Chamar o mesmo profissional toda semana, no mesmo dia, por meses, pode levar a Justiça do "
                "Trabalho a ver um emprego sem carteira assinada, com todos os direitos devidos desde o início."
            ),
            section_id="por-que",
        ),
        section(
            "O contrato intermitente",
            paragraph(
                "Desde a reforma trabalhista de 2017, a CLT (art. 452-A) prevê o contrato de trabalho "
                "intermitente: a pessoa é registrada, é chamada com pelo menos 3 dias de antecedência quando "
                "houver trabalho, pode recusar, e recebe ao fim de cada período o valor das horas com férias, "
                "13º e FGTS proporcionais. Se a sua necessidade é fixa, esse é o caminho legal para continuar "
                "chamando a mesma pessoa."
            ),
            section_id="intermitente",
        ),
        section(
            "Como calculamos",
            bullet_list(
                [
                    "Para cada empresa e profissional contamos os turnos combinados entre os dois (inclusive o que "
                    "está sendo decidido); turnos cancelados, expirados ou em que a pessoa não compareceu não contam.",
                    "W: semanas com turno entre as últimas 8 (semanas de segunda a domingo, no horário de Brasília).",
                    "S: o maior número de turnos num mesmo dia da semana nessas 8 semanas.",
                    "N: turnos nos últimos 28 dias.",
                    "Amarelo: W a partir de 5 ou N a partir de 8. Mostramos um aviso ao aceitar, convidar ou "
                    "contratar de novo.",
                    "Vermelho: W a partir de 7, S a partir de 6 ou N a partir de 12. Além do aviso, a empresa "
                    "precisa marcar 'Estou ciente e assumo a responsabilidade' para continuar.",
                    "O termômetro nunca impede uma contratação: ele avisa.",
                ]
            ),
            section_id="calculo",
        ),
        section(
            "Importante",
            paragraph(
                "Este termômetro é um alerta, não uma orientação jurídica. Cada caso depende de como o trabalho "
                "acontece de fato. Na dúvida, consulte um advogado ou contador."
            ),
            section_id="aviso",
        ),
    )
