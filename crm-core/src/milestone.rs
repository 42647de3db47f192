//! Project milestones: the record, its commands and rules.
//!
//! Every project has one `uncategorised` milestone (the catch-all for tasks), which cannot
//! be deleted. New milestones are `categorised` and go after the project's highest
//! position. Titles are unique per project, ignoring case, width and invisible characters
//! (held by the database, as category names are: see [`crate::category`]).
//! Reordering gives the listed milestones positions 1..N; the project's other milestones
//! follow in their previous order.

use serde::Serialize;

use crate::choice_enum;
use crate::conflict::Conflict;
use crate::ids::{MilestoneId, ProjectId, UserId};
use crate::input::{Form, Presence, RawMap, RawValue, TextRule, read_choice, read_id, text};
use crate::listing::{KeyKind, ListParams, Order};
use crate::time::RecordDates;
use crate::validation::{FieldErrors, RefKind, References, Rejected, message};

choice_enum!(
    /// A milestone's colour key.
    pub enum MilestoneColor {
        /// Default grey.
        Default = "default",
        /// Primary.
        Primary = "primary",
        /// Success green.
        Success = "success",
        /// Info.
        Info = "info",
        /// Warning.
        Warning = "warning",
        /// Danger red.
        Danger = "danger",
        /// Lime.
        Lime = "lime",
        /// Brown.
        Brown = "brown",
    }
);

choice_enum!(
    /// A milestone's kind.
    pub enum MilestoneType {
        /// Created by users.
        Categorised = "categorised",
        /// The project's system default.
        Uncategorised = "uncategorised",
    }
);

choice_enum!(
    /// Sort keys of the milestone list.
    pub enum MilestoneSort {
        /// By title.
        Title = "milestone_title",
        /// By position.
        Position = "milestone_position",
        /// By creation time.
        Created = "milestone_created",
    }
);

/// A milestone as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Milestone {
    /// Milestone id.
    pub id: MilestoneId,
    /// Title.
    pub title: String,
    /// The owning project.
    pub project_id: ProjectId,
    /// `categorised` or `uncategorised`.
    #[serde(rename = "type")]
    pub milestone_type: MilestoneType,
    /// Colour key.
    pub color: MilestoneColor,
    /// Ordering position (1-based).
    pub position: i32,
    /// Who created it.
    pub creator_id: Option<UserId>,
    /// Tasks in it.
    pub tasks_count: i64,
    /// Creation and update times.
    pub dates: RecordDates,
}

/// `POST /milestones`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMilestone {
    /// `milestone_projectid`.
    pub project: ProjectId,
    /// `milestone_title`.
    pub title: String,
    /// `milestone_color`.
    pub color: MilestoneColor,
    references: References,
}

impl NewMilestone {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let project = form
            .required_ref("milestone_projectid", RefKind::Project)
            .and_then(ProjectId::new);
        let title = form.required("milestone_title", text(TextRule::TITLE));
        let color = form.required("milestone_color", read_choice::<MilestoneColor>);
        let references = form.finish()?;
        match (project, title, color) {
            (Some(project), Some(title), Some(color)) => Ok(NewMilestone {
                project,
                title,
                color,
                references,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The project to check.
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `PATCH /milestones/{id}`: only title and colour change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MilestoneUpdate {
    /// `milestone_title`.
    pub title: String,
    /// `milestone_color`.
    pub color: MilestoneColor,
}

impl MilestoneUpdate {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let title = form.required("milestone_title", text(TextRule::TITLE));
        let color = form.required("milestone_color", read_choice::<MilestoneColor>);
        form.finish()?;
        match (title, color) {
            (Some(title), Some(color)) => Ok(MilestoneUpdate { title, color }),
            _ => Err(Rejected::default()),
        }
    }
}

/// `DELETE /milestones/{id}` options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MilestoneDeletion {
    /// `delete_tasks=yes`: delete the tasks (with attachments, comments, timers) instead of
    /// moving them to the project's `uncategorised` milestone.
    pub delete_tasks: bool,
}

impl MilestoneDeletion {
    /// Reads `delete_tasks` (from the query string or body): exactly `yes` (or JSON `true`,
    /// which PHP's `== 'yes'` also accepts) deletes; anything else, `YES` included, or
    /// nothing, reassigns: deleting is never a guess.
    pub fn parse(raw: &RawMap) -> Self {
        let delete_tasks = match raw.get("delete_tasks") {
            Some(RawValue::Text(s)) => s.trim() == "yes",
            Some(RawValue::Bool(b)) => *b,
            _ => false,
        };
        MilestoneDeletion { delete_tasks }
    }
}

/// The default milestone cannot be deleted.
pub fn check_deletion(milestone_type: MilestoneType) -> Result<(), Conflict> {
    match milestone_type {
        MilestoneType::Uncategorised => Err(Conflict::DefaultMilestone),
        MilestoneType::Categorised => Ok(()),
    }
}

/// The most milestones one reorder may list.
pub const MAX_REORDER: usize = 1000;

/// `PUT /milestones/positions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MilestoneReorder {
    /// Distinct milestone ids, in the new order.
    pub ids: Vec<MilestoneId>,
    /// The field key each id was sent under (`milestones.7` for a sparse form index), for
    /// messages.
    fields: Vec<String>,
}

impl MilestoneReorder {
    /// Reads `milestones` (required, non-empty, distinct integers). A rejected request
    /// still carries every id that parsed as a reference, so that unknown ids are reported
    /// with the other failing elements.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let mut ids: Vec<MilestoneId> = Vec::new();
        let mut fields: Vec<String> = Vec::new();
        match form.list("milestones", true, MAX_REORDER) {
            Some(list) if list.is_empty() => {
                form.error("milestones", message::required("milestones"))
            }
            Some(list) => {
                for (i, value) in list {
                    let key = format!("milestones.{i}");
                    let Some(id) = form.element(&key, value, read_id) else {
                        continue;
                    };
                    form.reference(&key, RefKind::Milestone, id);
                    let Some(id) = MilestoneId::new(id) else {
                        continue;
                    };
                    if ids.contains(&id) {
                        form.error_at(&key, message::distinct(&key));
                    } else {
                        ids.push(id);
                        fields.push(key);
                    }
                }
            }
            None => {}
        }
        form.finish()?;
        Ok(MilestoneReorder { ids, fields })
    }

    /// Checks the ids against the database: `found` gives the project of each requested id
    /// that exists. Every id must exist and belong to the project of the first one that
    /// exists; each other one is reported under the key it was sent with. Returns that
    /// project.
    pub fn check_projects(
        &self,
        found: &[(MilestoneId, ProjectId)],
    ) -> Result<ProjectId, FieldErrors> {
        let project_of = |id: MilestoneId| found.iter().find(|(m, _)| *m == id).map(|(_, p)| *p);
        let project = self.ids.iter().find_map(|id| project_of(*id));
        let mut errors = FieldErrors::new();
        for (id, key) in self.ids.iter().zip(&self.fields) {
            if project.is_none() || project_of(*id) != project {
                errors.add(key, message::invalid(key));
            }
        }
        match project {
            Some(p) if errors.is_empty() => Ok(p),
            _ => Err(errors),
        }
    }

    /// The new position of every milestone of the project, given all of them in their
    /// current order: the listed ones first (1..N), then the others in their old order.
    pub fn positions(&self, current_order: &[MilestoneId]) -> Vec<(MilestoneId, i32)> {
        let rest = current_order.iter().filter(|id| !self.ids.contains(id));
        self.ids
            .iter()
            .chain(rest)
            .zip(1..)
            .map(|(id, pos)| (*id, pos))
            .collect()
    }
}

/// `GET /milestones`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MilestoneListQuery {
    /// `project_id` (required; must exist).
    pub project: ProjectId,
    /// `type` filter.
    pub milestone_type: Option<MilestoneType>,
    /// Paging, order, sort, search (on the title). Without `sort`, by position ascending.
    pub params: ListParams<MilestoneSort>,
    references: References,
}

impl MilestoneListQuery {
    /// Reads the query string.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let project = form
            .required_ref("project_id", RefKind::Project)
            .and_then(ProjectId::new);
        let milestone_type = form.optional("type", read_choice::<MilestoneType>);
        let params = ListParams::read(&mut form);
        let order_given = matches!(form.presence("order"), Presence::Value(_));
        let mut params = if params.sort.is_none() {
            // The default list is the board order: by position, ascending unless asked.
            let order = if order_given {
                params.order
            } else {
                Order::Asc
            };
            ListParams {
                sort: Some(MilestoneSort::Position),
                order,
                ..params
            }
        } else {
            params
        };
        let kind = match params.sort {
            Some(MilestoneSort::Title) => KeyKind::Text,
            _ => KeyKind::Integer,
        };
        let filters = Self::filters(project, milestone_type);
        params.bind(&mut form, "milestones", &filters, kind);
        let references = form.finish()?;
        let Some(project) = project else {
            return Err(Rejected::default());
        };
        Ok(MilestoneListQuery {
            project,
            milestone_type,
            params,
            references,
        })
    }

    /// The filters, canonically (what a cursor is bound to besides sort, order, search).
    fn filters(project: Option<ProjectId>, milestone_type: Option<MilestoneType>) -> String {
        format!(
            "{}|{}",
            project.map_or(0, ProjectId::get),
            milestone_type.map_or("", |t| t.as_str())
        )
    }

    /// The digest the cursors of this query carry.
    pub fn binding(&self) -> u64 {
        self.params.binding(
            "milestones",
            &Self::filters(Some(self.project), self.milestone_type),
        )
    }

    /// The project to check.
    pub fn references(&self) -> &References {
        &self.references
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw};

    fn ids(v: &[i64]) -> Vec<MilestoneId> {
        v.iter().map(|i| MilestoneId::new(*i).unwrap()).collect()
    }

    #[test]
    fn a_new_milestone_needs_project_title_and_a_known_colour() {
        let r = NewMilestone::parse(&raw(&[("milestone_color", "pink")])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "milestone_projectid"),
            ["The milestone projectid field is required."]
        );
        assert_eq!(
            msg(&r.errors, "milestone_title"),
            ["The milestone title field is required."]
        );
        assert_eq!(
            msg(&r.errors, "milestone_color"),
            ["The selected milestone color is invalid."]
        );
        let m = NewMilestone::parse(&raw(&[
            ("milestone_projectid", "1"),
            ("milestone_title", "Phase 1"),
            ("milestone_color", "lime"),
        ]))
        .unwrap();
        assert_eq!(m.color, MilestoneColor::Lime);
        assert_eq!(m.references().as_slice()[0].kind, RefKind::Project);
    }

    #[test]
    fn an_update_changes_title_and_colour_only() {
        let r = MilestoneUpdate::parse(&raw(&[("milestone_title", "<b>x</b>")])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "milestone_title"),
            ["The milestone title must not contain any HTML."]
        );
        assert_eq!(
            msg(&r.errors, "milestone_color"),
            ["The milestone color field is required."]
        );
    }

    #[test]
    fn the_default_milestone_cannot_be_deleted() {
        assert_eq!(
            check_deletion(MilestoneType::Uncategorised),
            Err(Conflict::DefaultMilestone)
        );
        assert_eq!(check_deletion(MilestoneType::Categorised), Ok(()));
        assert_eq!(
            Conflict::DefaultMilestone.message(),
            "You cannot delete the default milestone."
        );
    }

    #[test]
    fn only_delete_tasks_yes_deletes_the_tasks() {
        assert!(MilestoneDeletion::parse(&raw(&[("delete_tasks", "yes")])).delete_tasks);
        assert!(!MilestoneDeletion::parse(&raw(&[("delete_tasks", "no")])).delete_tasks);
        assert!(!MilestoneDeletion::parse(&RawMap::new()).delete_tasks);
        for other in ["YES", "Yes", "y", "1", "true"] {
            let d = MilestoneDeletion::parse(&raw(&[("delete_tasks", other)]));
            assert!(!d.delete_tasks, "{other}");
        }
        let mut r = RawMap::new();
        r.insert("delete_tasks", RawValue::Bool(true));
        assert!(
            MilestoneDeletion::parse(&r).delete_tasks,
            "JSON true, as PHP's == 'yes'"
        );
    }

    /// A reorder request of `ids`, as a JSON array would send them.
    fn reorder_of(ids: &[i64]) -> MilestoneReorder {
        let mut r = RawMap::new();
        r.insert(
            "milestones",
            RawValue::List(ids.iter().map(|i| RawValue::text(i.to_string())).collect()),
        );
        MilestoneReorder::parse(&r).unwrap()
    }

    #[test]
    fn reorder_needs_distinct_ids() {
        let mut r = RawMap::new();
        r.insert("milestones", RawValue::List(vec![]));
        let e = MilestoneReorder::parse(&r).unwrap_err();
        assert_eq!(
            msg(&e.errors, "milestones"),
            ["The milestones field is required."]
        );
        r.insert(
            "milestones",
            RawValue::List(vec![
                RawValue::text("3"),
                RawValue::text("3"),
                RawValue::text("z"),
            ]),
        );
        let e = MilestoneReorder::parse(&r).unwrap_err();
        assert_eq!(
            msg(&e.errors, "milestones.1"),
            ["The milestones.1 field has a duplicate value."]
        );
        assert_eq!(
            msg(&e.errors, "milestones.2"),
            ["The milestones.2 must be an integer."]
        );
        // The ids that parsed are still checked for existence with the rest.
        let checked: Vec<_> = e
            .references
            .as_slice()
            .iter()
            .map(|r| (r.field.as_str(), r.kind, r.id))
            .collect();
        assert_eq!(
            checked,
            [
                ("milestones.0", RefKind::Milestone, 3),
                ("milestones.1", RefKind::Milestone, 3)
            ]
        );
    }

    #[test]
    fn reorder_errors_name_the_index_that_was_sent() {
        let mut r = RawMap::new();
        r.insert(
            "milestones",
            RawValue::Indexed(vec![(3, RawValue::text("20")), (7, RawValue::text("9999"))]),
        );
        let reorder = MilestoneReorder::parse(&r).unwrap();
        let found = vec![(MilestoneId::new(20).unwrap(), ProjectId::new(1).unwrap())];
        let e = reorder.check_projects(&found).unwrap_err();
        assert_eq!(
            msg(&e, "milestones.7"),
            ["The selected milestones.7 is invalid."]
        );
        assert!(!e.has("milestones.1"));
    }

    #[test]
    fn reordered_milestones_come_first_and_the_others_keep_their_order() {
        let reorder = reorder_of(&[12, 10]);
        let positions = reorder.positions(&ids(&[10, 11, 12, 13]));
        let got: Vec<_> = positions.iter().map(|(id, p)| (id.get(), *p)).collect();
        assert_eq!(got, vec![(12, 1), (10, 2), (11, 3), (13, 4)]);
    }

    #[test]
    fn reorder_ids_must_exist_and_share_one_project() {
        let p1 = ProjectId::new(1).unwrap();
        let p2 = ProjectId::new(2).unwrap();
        let reorder = reorder_of(&[5, 6, 7]);
        let found = vec![
            (MilestoneId::new(5).unwrap(), p1),
            (MilestoneId::new(7).unwrap(), p2),
        ];
        let e = reorder.check_projects(&found).unwrap_err();
        assert_eq!(
            msg(&e, "milestones.1"),
            ["The selected milestones.1 is invalid."]
        );
        assert_eq!(
            msg(&e, "milestones.2"),
            ["The selected milestones.2 is invalid."]
        );
        assert!(!e.has("milestones.0"));
        let ok = vec![
            (MilestoneId::new(5).unwrap(), p1),
            (MilestoneId::new(6).unwrap(), p1),
            (MilestoneId::new(7).unwrap(), p1),
        ];
        assert_eq!(reorder.check_projects(&ok), Ok(p1));
        assert!(reorder.check_projects(&[]).unwrap_err().has("milestones.0"));
    }

    #[test]
    fn listing_requires_a_project_and_defaults_to_board_order() {
        let r = MilestoneListQuery::parse(&RawMap::new()).unwrap_err();
        assert_eq!(
            msg(&r.errors, "project_id"),
            ["The project id field is required."]
        );
        let q = MilestoneListQuery::parse(&raw(&[("project_id", "4")])).unwrap();
        assert_eq!(
            (q.params.sort, q.params.order),
            (Some(MilestoneSort::Position), Order::Asc)
        );
        let q =
            MilestoneListQuery::parse(&raw(&[("project_id", "4"), ("sort", "milestone_title")]))
                .unwrap();
        assert_eq!(
            (q.params.sort, q.params.order),
            (Some(MilestoneSort::Title), Order::Desc)
        );
        let r =
            MilestoneListQuery::parse(&raw(&[("project_id", "4"), ("type", "other")])).unwrap_err();
        assert_eq!(msg(&r.errors, "type"), ["The selected type is invalid."]);
    }
}
