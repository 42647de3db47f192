from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.email_status import EmailStatus

if TYPE_CHECKING:
    from ..models.email_dates import EmailDates
    from ..models.email_resource import EmailResource


T = TypeVar("T", bound="Email")


@_attrs_define
class Email:
    """A queued email (the message body is not returned).

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        recipient (str): The client's contact address when the email was queued.
        subject (None | str): null while the message is being composed (the moment after the write that queued it)
        status (EmailStatus):
        attempts (int): Delivery attempts made so far.
        last_error (None | str): The last failure: the mail server's reply or the connection error.
        resource (EmailResource):
        dates (EmailDates):
        attachments (list[str]): The names of the files the email carries, in order: the record's PDF (`invoice-7.pdf`,
            with `--mail-attach-pdf`), its e-invoice (`INV-2026-00001-xrechnung.xml`, with `--mail-attach-einvoice`; `.pdf`
            for Factur-X, which replaces the plain PDF). Empty while the message is being composed. The `email.sent` event's
            email says so too: the e-invoice went with it.
    """

    id: int
    recipient: str
    subject: None | str
    status: EmailStatus
    attempts: int
    last_error: None | str
    resource: EmailResource
    dates: EmailDates
    attachments: list[str]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        recipient = self.recipient

        subject: None | str
        subject = self.subject

        status = self.status.value

        attempts = self.attempts

        last_error: None | str
        last_error = self.last_error

        resource = self.resource.to_dict()

        dates = self.dates.to_dict()

        attachments = self.attachments

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "recipient": recipient,
                "subject": subject,
                "status": status,
                "attempts": attempts,
                "last_error": last_error,
                "resource": resource,
                "dates": dates,
                "attachments": attachments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.email_dates import EmailDates  # noqa: PLC0415
        from ..models.email_resource import EmailResource  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        recipient = d.pop("recipient")

        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("subject"))

        status = EmailStatus(d.pop("status"))

        attempts = d.pop("attempts")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        resource = EmailResource.from_dict(d.pop("resource"))

        dates = EmailDates.from_dict(d.pop("dates"))

        attachments = cast(list[str], d.pop("attachments"))

        email = cls(
            id=id,
            recipient=recipient,
            subject=subject,
            status=status,
            attempts=attempts,
            last_error=last_error,
            resource=resource,
            dates=dates,
            attachments=attachments,
        )

        return email
