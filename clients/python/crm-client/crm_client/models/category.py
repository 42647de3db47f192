from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.category_system_default import CategorySystemDefault
from ..models.category_type import CategoryType
from ..models.category_visibility_type_1 import CategoryVisibilityType1
from ..models.category_visibility_type_2_type_1 import CategoryVisibilityType2Type1
from ..models.category_visibility_type_3_type_1 import CategoryVisibilityType3Type1

if TYPE_CHECKING:
    from ..models.record_dates import RecordDates


T = TypeVar("T", bound="Category")


@_attrs_define
class Category:
    """A category.

    Attributes:
        id (int): A record id: a positive 64-bit integer.
        name (str):
        description (None | str):
        type_ (CategoryType): Set on create, immutable.
        visibility (CategoryVisibilityType1 | CategoryVisibilityType2Type1 | CategoryVisibilityType3Type1 | None):
        icon (None | str):
        system_default (CategorySystemDefault): `yes` for the system defaults, which cannot be deleted.
        slug (str): `<id>-` followed by the name as a slug.
        count (int): Records of the category's type in it.
        users_count (int): Team members assigned to it.
        dates (RecordDates): Creation and last update times.
    """

    id: int
    name: str
    description: None | str
    type_: CategoryType
    visibility: CategoryVisibilityType1 | CategoryVisibilityType2Type1 | CategoryVisibilityType3Type1 | None
    icon: None | str
    system_default: CategorySystemDefault
    slug: str
    count: int
    users_count: int
    dates: RecordDates

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        description: None | str
        description = self.description

        type_ = self.type_.value

        visibility: None | str
        if isinstance(self.visibility, CategoryVisibilityType1):
            visibility = self.visibility.value
        elif isinstance(self.visibility, CategoryVisibilityType2Type1):
            visibility = self.visibility.value
        elif isinstance(self.visibility, CategoryVisibilityType3Type1):
            visibility = self.visibility.value
        else:
            visibility = self.visibility

        icon: None | str
        icon = self.icon

        system_default = self.system_default.value

        slug = self.slug

        count = self.count

        users_count = self.users_count

        dates = self.dates.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "description": description,
                "type": type_,
                "visibility": visibility,
                "icon": icon,
                "system_default": system_default,
                "slug": slug,
                "count": count,
                "users_count": users_count,
                "dates": dates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_dates import RecordDates  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        type_ = CategoryType(d.pop("type"))

        def _parse_visibility(
            data: object,
        ) -> CategoryVisibilityType1 | CategoryVisibilityType2Type1 | CategoryVisibilityType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_1 = CategoryVisibilityType1(data)

                return visibility_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_2_type_1 = CategoryVisibilityType2Type1(data)

                return visibility_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_3_type_1 = CategoryVisibilityType3Type1(data)

                return visibility_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CategoryVisibilityType1 | CategoryVisibilityType2Type1 | CategoryVisibilityType3Type1 | None, data
            )

        visibility = _parse_visibility(d.pop("visibility"))

        def _parse_icon(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        icon = _parse_icon(d.pop("icon"))

        system_default = CategorySystemDefault(d.pop("system_default"))

        slug = d.pop("slug")

        count = d.pop("count")

        users_count = d.pop("users_count")

        dates = RecordDates.from_dict(d.pop("dates"))

        category = cls(
            id=id,
            name=name,
            description=description,
            type_=type_,
            visibility=visibility,
            icon=icon,
            system_default=system_default,
            slug=slug,
            count=count,
            users_count=users_count,
            dates=dates,
        )

        return category
