//! The route table: every (method, path) the service answers, and the lookup that gives
//! 404 "Route not found." for unknown paths and 405 with `Allow` for a known path with
//! another method. The OpenAPI document is tested against [`ROUTES`].

use http::Method;

/// Every endpoint of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Endpoint {
    Health,
    OpenApi,
    ListCategories,
    CreateCategory,
    GetCategory,
    UpdateCategory,
    DeleteCategory,
    SetCategoryTeam,
    MigrateCategory,
    ListContracts,
    CreateContract,
    GetContract,
    UpdateContract,
    DeleteContract,
    SetContractTags,
    CloneContract,
    ListEstimates,
    CreateEstimate,
    GetEstimate,
    UpdateEstimate,
    DeleteEstimate,
    SetEstimateItems,
    SetEstimateStatus,
    SetEstimateTags,
    CloneEstimate,
    PublishEstimate,
    SendEstimateEmail,
    ConvertEstimate,
    ListMilestones,
    CreateMilestone,
    GetMilestone,
    UpdateMilestone,
    DeleteMilestone,
    ReorderMilestones,
    ListNotes,
    CreateNote,
    GetNote,
    UpdateNote,
    DeleteNote,
    SetNoteTags,
}

/// One route: method, path template (matchit syntax, `{id}`), endpoint.
pub type Route = (Method, &'static str, Endpoint);

/// The route table.
pub static ROUTES: &[Route] = &[
    (Method::GET, "/healthz", Endpoint::Health),
    (Method::GET, "/api/openapi.json", Endpoint::OpenApi),
    (Method::GET, "/api/categories", Endpoint::ListCategories),
    (Method::POST, "/api/categories", Endpoint::CreateCategory),
    (Method::GET, "/api/categories/{id}", Endpoint::GetCategory),
    (
        Method::PATCH,
        "/api/categories/{id}",
        Endpoint::UpdateCategory,
    ),
    (
        Method::DELETE,
        "/api/categories/{id}",
        Endpoint::DeleteCategory,
    ),
    (
        Method::PUT,
        "/api/categories/{id}/team",
        Endpoint::SetCategoryTeam,
    ),
    (
        Method::PUT,
        "/api/categories/{id}/migrate",
        Endpoint::MigrateCategory,
    ),
    (Method::GET, "/api/contracts", Endpoint::ListContracts),
    (Method::POST, "/api/contracts", Endpoint::CreateContract),
    (Method::GET, "/api/contracts/{id}", Endpoint::GetContract),
    (
        Method::PATCH,
        "/api/contracts/{id}",
        Endpoint::UpdateContract,
    ),
    (
        Method::DELETE,
        "/api/contracts/{id}",
        Endpoint::DeleteContract,
    ),
    (
        Method::PUT,
        "/api/contracts/{id}/tags",
        Endpoint::SetContractTags,
    ),
    (
        Method::POST,
        "/api/contracts/{id}/clone",
        Endpoint::CloneContract,
    ),
    (Method::GET, "/api/estimates", Endpoint::ListEstimates),
    (Method::POST, "/api/estimates", Endpoint::CreateEstimate),
    (Method::GET, "/api/estimates/{id}", Endpoint::GetEstimate),
    (
        Method::PATCH,
        "/api/estimates/{id}",
        Endpoint::UpdateEstimate,
    ),
    (
        Method::DELETE,
        "/api/estimates/{id}",
        Endpoint::DeleteEstimate,
    ),
    (
        Method::PUT,
        "/api/estimates/{id}/items",
        Endpoint::SetEstimateItems,
    ),
    (
        Method::PUT,
        "/api/estimates/{id}/status",
        Endpoint::SetEstimateStatus,
    ),
    (
        Method::PUT,
        "/api/estimates/{id}/tags",
        Endpoint::SetEstimateTags,
    ),
    (
        Method::POST,
        "/api/estimates/{id}/clone",
        Endpoint::CloneEstimate,
    ),
    (
        Method::PUT,
        "/api/estimates/{id}/publish",
        Endpoint::PublishEstimate,
    ),
    (
        Method::POST,
        "/api/estimates/{id}/send-email",
        Endpoint::SendEstimateEmail,
    ),
    (
        Method::POST,
        "/api/estimates/{id}/convert-to-invoice",
        Endpoint::ConvertEstimate,
    ),
    (Method::GET, "/api/milestones", Endpoint::ListMilestones),
    (Method::POST, "/api/milestones", Endpoint::CreateMilestone),
    (
        Method::PUT,
        "/api/milestones/positions",
        Endpoint::ReorderMilestones,
    ),
    (Method::GET, "/api/milestones/{id}", Endpoint::GetMilestone),
    (
        Method::PATCH,
        "/api/milestones/{id}",
        Endpoint::UpdateMilestone,
    ),
    (
        Method::DELETE,
        "/api/milestones/{id}",
        Endpoint::DeleteMilestone,
    ),
    (Method::GET, "/api/notes", Endpoint::ListNotes),
    (Method::POST, "/api/notes", Endpoint::CreateNote),
    (Method::GET, "/api/notes/{id}", Endpoint::GetNote),
    (Method::PATCH, "/api/notes/{id}", Endpoint::UpdateNote),
    (Method::DELETE, "/api/notes/{id}", Endpoint::DeleteNote),
    (Method::PUT, "/api/notes/{id}/tags", Endpoint::SetNoteTags),
];

/// The routes of one path template.
#[derive(Debug)]
struct PathRoutes {
    template: &'static str,
    methods: Vec<(Method, Endpoint)>,
}

/// What a request's method and path resolve to.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved<'p> {
    /// An endpoint, its path template (for logs) and the `{id}` segment, if any.
    Found {
        /// The endpoint.
        endpoint: Endpoint,
        /// Its path template.
        template: &'static str,
        /// The `{id}` segment.
        id: Option<&'p str>,
    },
    /// A known path, another method.
    MethodNotAllowed {
        /// The `Allow` header value.
        allow: String,
        /// The path template (for logs).
        template: &'static str,
    },
    /// An unknown path.
    NotFound,
}

/// The compiled route table.
#[derive(Debug)]
pub struct Router {
    matcher: matchit::Router<usize>,
    paths: Vec<PathRoutes>,
}

impl Router {
    /// Compiles [`ROUTES`].
    pub fn new() -> Result<Router, matchit::InsertError> {
        let mut paths: Vec<PathRoutes> = Vec::new();
        for (method, template, endpoint) in ROUTES {
            match paths.iter_mut().find(|p| p.template == *template) {
                Some(p) => p.methods.push((method.clone(), *endpoint)),
                None => paths.push(PathRoutes {
                    template,
                    methods: vec![(method.clone(), *endpoint)],
                }),
            }
        }
        let mut matcher = matchit::Router::new();
        for (i, p) in paths.iter().enumerate() {
            matcher.insert(p.template, i)?;
        }
        Ok(Router { matcher, paths })
    }

    /// Resolves a request. `HEAD` is answered wherever `GET` is (RFC 9110 §9.3.2; hyper
    /// sends the headers without the body), and `Allow` lists it there.
    pub fn resolve<'p>(&self, method: &Method, path: &'p str) -> Resolved<'p> {
        let Ok(matched) = self.matcher.at(path) else {
            return Resolved::NotFound;
        };
        let routes = &self.paths[*matched.value];
        let wanted = if method == Method::HEAD {
            &Method::GET
        } else {
            method
        };
        match routes.methods.iter().find(|(m, _)| m == wanted) {
            Some((_, endpoint)) => Resolved::Found {
                endpoint: *endpoint,
                template: routes.template,
                id: matched.params.get("id"),
            },
            None => {
                let mut allow: Vec<&str> = Vec::new();
                for (m, _) in &routes.methods {
                    allow.push(m.as_str());
                    if m == Method::GET {
                        allow.push(Method::HEAD.as_str());
                    }
                }
                Resolved::MethodNotAllowed {
                    allow: allow.join(", "),
                    template: routes.template,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_to_endpoints_with_their_id() {
        let r = Router::new().unwrap();
        assert_eq!(
            r.resolve(&Method::PUT, "/api/estimates/12/items"),
            Resolved::Found {
                endpoint: Endpoint::SetEstimateItems,
                template: "/api/estimates/{id}/items",
                id: Some("12")
            }
        );
        assert!(matches!(
            r.resolve(&Method::PUT, "/api/milestones/positions"),
            Resolved::Found {
                endpoint: Endpoint::ReorderMilestones,
                ..
            }
        ));
        // The static segment wins over `{id}`: `positions` is a known path of its own.
        assert_eq!(
            r.resolve(&Method::GET, "/api/milestones/positions"),
            Resolved::MethodNotAllowed {
                allow: "PUT".into(),
                template: "/api/milestones/positions"
            }
        );
        assert!(matches!(
            r.resolve(&Method::GET, "/api/milestones/7"),
            Resolved::Found {
                endpoint: Endpoint::GetMilestone,
                id: Some("7"),
                ..
            }
        ));
    }

    #[test]
    fn a_known_path_with_another_method_lists_the_allowed_ones() {
        let r = Router::new().unwrap();
        assert_eq!(
            r.resolve(&Method::PUT, "/api/notes/3"),
            Resolved::MethodNotAllowed {
                allow: "GET, HEAD, PATCH, DELETE".into(),
                template: "/api/notes/{id}"
            }
        );
    }

    #[test]
    fn head_is_answered_wherever_get_is() {
        let r = Router::new().unwrap();
        assert_eq!(
            r.resolve(&Method::HEAD, "/api/notes/3"),
            Resolved::Found {
                endpoint: Endpoint::GetNote,
                template: "/api/notes/{id}",
                id: Some("3")
            }
        );
        assert!(matches!(
            r.resolve(&Method::HEAD, "/healthz"),
            Resolved::Found {
                endpoint: Endpoint::Health,
                ..
            }
        ));
        assert!(matches!(
            r.resolve(&Method::HEAD, "/api/milestones/positions"),
            Resolved::MethodNotAllowed { .. }
        ));
    }

    #[test]
    fn unknown_paths_are_not_found() {
        let r = Router::new().unwrap();
        assert_eq!(r.resolve(&Method::GET, "/api/invoices"), Resolved::NotFound);
        assert_eq!(
            r.resolve(&Method::GET, "/api/notes/3/extra"),
            Resolved::NotFound
        );
    }

    #[test]
    fn the_table_has_every_endpoint_of_the_five_areas() {
        let api: Vec<_> = ROUTES
            .iter()
            .filter(|(_, p, _)| p.starts_with("/api/") && !p.ends_with("openapi.json"))
            .collect();
        let count = |prefix: &str| api.iter().filter(|(_, p, _)| p.starts_with(prefix)).count();
        assert_eq!(count("/api/categories"), 7);
        assert_eq!(count("/api/contracts"), 7);
        assert_eq!(count("/api/estimates"), 12);
        assert_eq!(count("/api/milestones"), 6);
        assert_eq!(count("/api/notes"), 6);
    }
}
