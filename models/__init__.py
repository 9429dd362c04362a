"""SQLModel tables; importing this package registers every table on SQLModel.metadata."""

from models.auth import (
    AuthSession,
    EmailToken,
    LoginAttempt,
    OutboxEmail,
    RateEvent,
    SessionVersion,
    TokenPurpose,
    TrustedDevice,
)
from models.billing import ContactMessage, StripeEvent, Subscription
from models.chat import Chat, Message, Notification, NotificationType
from models.job import Application, ApplicationStatus, Job, JobListVersion, JobStatus, PaymentMode, Rating
from models.payment import MoneyMovement, MovementKind, PaymentKind, PaymentStatus, ProtectedPayment
from models.payout import CpfStatus, FiscalRegime, PayoutAccount
from models.reach import ChannelConsent, PushDevice, PushMessage, WhatsAppContact, WhatsAppMessage
from models.shift import Actor, Falta, Hiring, HiringEvent, HiringState, ReviewRequest
from models.team import Block, HiddenJob, Invite, InviteStatus, TeamMember
from models.user import Profile, Role, User, UserPreferences

__all__ = [
    "Actor",
    "Application",
    "ApplicationStatus",
    "AuthSession",
    "Block",
    "ChannelConsent",
    "Chat",
    "ContactMessage",
    "CpfStatus",
    "EmailToken",
    "Falta",
    "FiscalRegime",
    "HiddenJob",
    "Hiring",
    "HiringEvent",
    "HiringState",
    "Invite",
    "InviteStatus",
    "Job",
    "JobListVersion",
    "JobStatus",
    "LoginAttempt",
    "Message",
    "MoneyMovement",
    "MovementKind",
    "Notification",
    "NotificationType",
    "OutboxEmail",
    "PaymentKind",
    "PaymentMode",
    "PaymentStatus",
    "PayoutAccount",
    "Profile",
    "ProtectedPayment",
    "PushDevice",
    "PushMessage",
    "RateEvent",
    "Rating",
    "ReviewRequest",
    "Role",
    "SessionVersion",
    "StripeEvent",
    "Subscription",
    "TeamMember",
    "TokenPurpose",
    "TrustedDevice",
    "User",
    "UserPreferences",
    "WhatsAppContact",
    "WhatsAppMessage",
]
