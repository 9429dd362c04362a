"""Every number of the shift loop in one place (docs/product/shifts.md "Turnos").

Deadlines, windows, fees, faltas and reliability thresholds of a hiring after 'Candidatura aceita'.
Not legal advice: a threshold changes here and nowhere else. Values marked (P) are the product's own
choice where no other marketplace sets one.
"""

from datetime import timedelta
from zoneinfo import ZoneInfo

LOCAL_TZ = ZoneInfo("America/Sao_Paulo")

# A vaga's shift (§1).
MIN_DURATION = timedelta(hours=2)
MAX_DURATION = timedelta(hours=12)
MIN_LEAD = timedelta(hours=2)  # (P) earliest start: now + 2 h
MAX_LEAD = timedelta(days=60)  # (P) latest start: now + 60 days
MAX_BREAK_MIN = 120
MAX_COPIES = 8  # 'Duplicar' copies a vaga to at most 8 dates
LEGACY_START_HOUR = 9  # rows from before shift times: the shift starts at 09:00 local on the date
LEGACY_HOURS = 8  # ... and lasts 8 hours when no duration can be read

# When each side may act, relative to the start I and the end F (§2).
CONFIRM_FROM = timedelta(hours=48)  # 'Confirmar presença' from I - 48 h until I
UNCONFIRMED_AT = timedelta(hours=12)  # still not confirmed at I - 12 h: nao_confirmada
CHECK_IN_FROM = timedelta(minutes=60)  # 'Registrar chegada' from I - 60 min until F
NO_SHOW_FROM = timedelta(minutes=30)  # the company may mark 'Não compareceu' from I + 30 min
CHECK_OUT_MISSING = timedelta(hours=4)  # no exit at F + 4 h: the timer ends the shift
HOURS_DEADLINE = timedelta(hours=12)  # the freelancer sends hours until F + 12 h; then the timer does
NO_RECORD_NO_SHOW = timedelta(hours=12)  # no record at all at F + 12 h: nao_compareceu
APPROVAL_WINDOW = timedelta(hours=48)  # hours sent are approved by the timer after 48 h
# Hours the timer never approves (a person does: the company, or Turno staff in a dispute): more than
# the scheduled paid minutes, or more than the attendance records pay by over this tolerance when both
# the arrival and the exit were recorded (P: a quarter hour of rounding and paperwork).
HOURS_RECORDS_TOLERANCE = timedelta(minutes=15)
ADJUSTMENT_WINDOW = timedelta(hours=48)  # an adjustment is accepted by the timer after 48 h
CONTEST_WINDOW = timedelta(hours=48)  # a no-show may be contested for 48 h
ADJUST_REASON_MIN = 10

# Reminders (§2).
FREELANCER_REMINDERS = (timedelta(hours=24), timedelta(hours=2))  # before I
APPROVAL_REMINDER_BEFORE = timedelta(hours=6)  # before the automatic approval

# Money (§4), integer centavos.
LATE_CANCEL_WINDOW = timedelta(hours=24)  # the company cancels within 24 h of I: a fee is owed
MIN_PAID = timedelta(hours=4)  # late cancellation and 'Não precisamos mais' pay min(4 h, scheduled)

# 'Pagamento garantido pelo Turno' (§5): Turno's fee by the company's plan, on the hours' part.
PROTECTED_FEE_PERCENT = {"free": 12, "premium": 10, "enterprise": 8}
PAYMENT_WINDOW = timedelta(minutes=60)  # unpaid 60 min after 'Aceitar e pagar': back to pending
SETTLE_LEASE = timedelta(minutes=2)  # one worker settles a hiring at a time; a crashed one frees it
SETTLE_BACKOFF = (  # after the n-th failed try of a transfer or refund, wait this long (then the last)
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
)

# Faltas (§4).
FREE_CANCEL_AFTER_HIRE = timedelta(minutes=15)
FALTA_FREE_BEFORE = timedelta(hours=48)
FALTA_ONE_BEFORE = timedelta(hours=12)
FALTAS_FOR_NO_SHOW = 3
FALTAS_FOR_UNCONFIRMED_CANCEL = 1
FALTAS_TO_SUSPEND = 3
SUSPENSION = timedelta(days=14)
FALTA_LIFETIME = timedelta(days=90)
PAID_STREAK_FORGIVES = 8  # 8 paid shifts in a row remove the oldest falta

# 'Minha equipe' (§6): how many freelancers a company's team holds, by plan (P; None: no limit).
TEAM_SIZE = {"free": 10, "premium": 100, "enterprise": None}

# Reliability shown on the profile (§4).
RELIABILITY_MIN_SHIFTS = 3
RELIABILITY_WINDOW = 20
PUNCTUAL_GRACE = timedelta(minutes=5)  # (P) arriving up to 5 min after I counts as punctual
REVIEW_WINDOW = timedelta(days=7)  # 'Pedir revisão humana' within 7 days

# Attendance (§3).
WRONG_CODES = 5
WRONG_CODES_WINDOW = timedelta(minutes=10)

# How often each worker runs the timer (services/shifts/shift_timer.py).
TICK_SECONDS = 30
TICK_BATCH = 500
TICK_WORKERS = 4  # threads per tick on PostgreSQL (its time is round trips)
# The timer process's ticks on PostgreSQL: one thread, resting six times as long as each chunk took,
# so a burst of reminders is spread over seconds beside the people's requests (docs/performance.md).
TIMER_PROCESS_WORKERS = 1
TICK_PACE = 6.0

# Fiscal (§7).
MEI_ANNUAL_LIMIT_CENTAVOS = 8_100_000  # a MEI may bill up to R$ 81.000 per calendar year (LC 123/2006, art. 18-A)
MEI_WARNING_PERCENT = 80  # 'Meus ganhos' warns a MEI from 80 % of the limit
