//! The route table: every endpoint of the service is one row of `route_table!`: method,
//! path template, the [`Endpoint`] it names, its OpenAPI operation id, who may call it, and
//! its handler. Everything else is derived from the table: the [`Endpoint`] enum,
//! [`ROUTES`], `dispatch`, the lookup that gives 404 "Route not found." for unknown paths
//! and 405 with `Allow` (HEAD wherever GET is) for a known path with another method, the
//! OpenAPI document's operations (the build script reads these rows, so keep them one per
//! line as written), and, in the tests, the malformed-input sweep's targets.
//!
//! The scope a `Key` route needs (API.md §15) is derived from its row as well, when the
//! table is compiled ([`Route::need`], `crm_core::scope::Need::of_route`): the area is the
//! path's first segment after `/api/` and the level `read` for `GET`, `write` for every
//! other method. A `Key` route whose path names no known area does not compile, so no
//! route can be added without a scope, and a route of a new area (`/api/payments`) needs
//! `payments:read` / `payments:write` with no code of its own.
//!
//! Adding an endpoint is: a row here, its handler (`routes/`) and its definition beside it
//! (`routes/<area>.openapi.json`, keyed by the operation id), its core command (crm-core),
//! and its store method (crm-store-pg).

use crm_core::scope::Need;
use http::Method;

use crate::error::ApiError;
use crate::response::Reply;
use crate::routes::{
    self, Env, Req, Visit, activity, bills, categories, client, clients, company, contracts,
    credit_notes, einvoices, emails, estimates, milestones, notes, payments, projects,
    recurring_invoices, tax_rates, users, webhooks,
};
use crm_core::bill::{EstimateKind, InvoiceKind};

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone: the route holds no data (health, readiness, the API description).
    Public,
    /// A valid API key (`Authorization: Bearer …`); the handler gets the parsed request.
    Key,
    /// Anyone holding a client link (API.md §12): no key, the path's token is the
    /// credential; counted per client address (`--public-rate-limit`), answered in HTML.
    Client,
}

/// What a handler is given besides the [`Env`], by its route's [`Access`].
#[derive(Debug)]
pub(crate) enum Given<'a> {
    /// A `Public` route: nothing.
    Nothing,
    /// A `Key` route: the authenticated request.
    Key(Req<'a>),
    /// A `Client` route: the link's visit.
    Client(Visit<'a>),
}

/// One row of the route table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The HTTP method.
    pub method: Method,
    /// The path template (matchit syntax: `{id}`).
    pub path: &'static str,
    /// The endpoint it names.
    pub endpoint: Endpoint,
    /// The `operationId` of its operation in the OpenAPI document.
    pub operation_id: &'static str,
    /// Who may call it.
    pub access: Access,
    /// What a key must be granted to call it: `Some` exactly for `Key` routes.
    pub need: Option<Need>,
}

/// Declares the route table: `Variant: METHOD "path", "operationId", Access => handler;`.
/// A `Public` handler is `async fn(&Env<'_>) -> Result<Reply, ApiError>`, a `Key` handler
/// `async fn(&Env<'_>, Req<'_>) -> Result<Reply, ApiError>`, a `Client` handler
/// `async fn(&Env<'_>, Visit<'_>) -> Result<Reply, ApiError>`. A handler generic over a
/// kind of bill is named with its kind: `bills::create::<InvoiceKind>`. The scope a `Key`
/// route needs is computed from its method and path in the constant [`ROUTES`]: a `Key`
/// route outside the known areas is a compile error naming it.
macro_rules! route_table {
    ($( $endpoint:ident: $method:ident $path:literal, $operation:literal, $access:ident => $handler:path; )*) => {
        /// Every endpoint of the service, one per row of [`ROUTES`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Endpoint {
            $(
                #[doc = concat!("`", stringify!($method), " ", $path, "` (`", $operation, "`)")]
                $endpoint,
            )*
        }

        /// The route table.
        pub static ROUTES: &[Route] = &[
            $(
                Route {
                    method: Method::$method,
                    path: $path,
                    endpoint: Endpoint::$endpoint,
                    operation_id: $operation,
                    access: Access::$access,
                    need: route_table!(@need $access, $method, $path),
                },
            )*
        ];

        /// Runs the endpoint's handler with what its access gives it. Each handler's future
        /// is boxed: the dispatch's own future is then a few words, not the largest of
        /// every handler's (a conversion's, which copies a whole bill, is tens of KiB in a
        /// debug build), so no request carries that size on its task's stack or moves it.
        pub(crate) async fn dispatch(
            endpoint: Endpoint,
            env: &Env<'_>,
            given: Given<'_>,
        ) -> Result<Reply, ApiError> {
            match endpoint {
                $( Endpoint::$endpoint => route_table!(@call $access, $handler, env, given), )*
            }
        }
    };
    (@need Key, $method:ident, $path:literal) => {
        match Need::of_route(stringify!($method), $path) {
            Some(need) => Some(need),
            None => panic!("{}", concat!(
                "the keyed route ",
                stringify!($method),
                " ",
                $path,
                " is in no scope area: a keyed path starts /api/<area>/ with an area of \
                 crm_core::scope::Area"
            )),
        }
    };
    (@need $access:ident, $method:ident, $path:literal) => {
        None
    };
    (@call Public, $handler:path, $env:ident, $given:ident) => {{
        let _ = $given;
        Box::pin($handler($env)).await
    }};
    (@call Key, $handler:path, $env:ident, $given:ident) => {
        match $given {
            Given::Key(req) => Box::pin($handler($env, req)).await,
            _ => Err(ApiError::Unauthorized(crate::error::Unauthenticated::Missing)),
        }
    };
    (@call Client, $handler:path, $env:ident, $given:ident) => {
        match $given {
            Given::Client(visit) => Box::pin($handler($env, visit)).await,
            _ => Err(ApiError::RouteNotFound),
        }
    };
}

route_table! {
    Index: GET "/", "index", Public => routes::index;
    Health: GET "/healthz", "health", Public => routes::health;
    Ready: GET "/readyz", "ready", Public => routes::ready;
    OpenApi: GET "/api/openapi.json", "getOpenApi", Public => routes::openapi;
    Docs: GET "/docs", "apiReference", Public => routes::docs::page;
    DocsSlash: GET "/docs/", "apiReferenceRedirect", Public => routes::docs::redirect;
    DocsScript: GET "/docs/redoc.standalone.js", "apiReferenceScript", Public => routes::docs::script;
    Metrics: GET "/metrics", "metrics", Public => routes::metrics;

    ListCategories: GET "/api/categories", "listCategories", Key => categories::list;
    CreateCategory: POST "/api/categories", "createCategory", Key => categories::create;
    GetCategory: GET "/api/categories/{id}", "getCategory", Key => categories::get;
    ListCategoryActivity: GET "/api/categories/{id}/activity", "listCategoryActivity", Key => activity::category;
    UpdateCategory: PATCH "/api/categories/{id}", "updateCategory", Key => categories::update;
    DeleteCategory: DELETE "/api/categories/{id}", "deleteCategory", Key => categories::delete;
    SetCategoryTeam: PUT "/api/categories/{id}/team", "setCategoryTeam", Key => categories::team;
    MigrateCategory: PUT "/api/categories/{id}/migrate", "migrateCategory", Key => categories::migrate;

    ListContracts: GET "/api/contracts", "listContracts", Key => contracts::list;
    CreateContract: POST "/api/contracts", "createContract", Key => contracts::create;
    GetContract: GET "/api/contracts/{id}", "getContract", Key => contracts::get;
    ListContractActivity: GET "/api/contracts/{id}/activity", "listContractActivity", Key => activity::contract;
    UpdateContract: PATCH "/api/contracts/{id}", "updateContract", Key => contracts::update;
    DeleteContract: DELETE "/api/contracts/{id}", "deleteContract", Key => contracts::delete;
    SetContractTags: PUT "/api/contracts/{id}/tags", "setContractTags", Key => contracts::tags;
    CloneContract: POST "/api/contracts/{id}/clone", "cloneContract", Key => contracts::clone;

    ListEstimates: GET "/api/estimates", "listEstimates", Key => bills::list::<EstimateKind>;
    CreateEstimate: POST "/api/estimates", "createEstimate", Key => bills::create::<EstimateKind>;
    GetEstimate: GET "/api/estimates/{id}", "getEstimate", Key => bills::get::<EstimateKind>;
    UpdateEstimate: PATCH "/api/estimates/{id}", "updateEstimate", Key => bills::update::<EstimateKind>;
    DeleteEstimate: DELETE "/api/estimates/{id}", "deleteEstimate", Key => bills::delete::<EstimateKind>;
    SetEstimateItems: PUT "/api/estimates/{id}/items", "setEstimateItems", Key => bills::items::<EstimateKind>;
    SetEstimateStatus: PUT "/api/estimates/{id}/status", "setEstimateStatus", Key => bills::status::<EstimateKind>;
    SetEstimateTags: PUT "/api/estimates/{id}/tags", "setEstimateTags", Key => bills::tags::<EstimateKind>;
    CloneEstimate: POST "/api/estimates/{id}/clone", "cloneEstimate", Key => bills::clone::<EstimateKind>;
    PublishEstimate: PUT "/api/estimates/{id}/publish", "publishEstimate", Key => bills::publish::<EstimateKind>;
    SendEstimateEmail: POST "/api/estimates/{id}/send-email", "sendEstimateEmail", Key => bills::send_email::<EstimateKind>;
    ConvertEstimate: POST "/api/estimates/{id}/convert-to-invoice", "convertEstimate", Key => estimates::convert;
    MakeEstimateLink: POST "/api/estimates/{id}/link", "makeEstimateLink", Key => bills::make_link::<EstimateKind>;
    RevokeEstimateLink: DELETE "/api/estimates/{id}/link", "revokeEstimateLink", Key => bills::revoke_link::<EstimateKind>;
    GetEstimatePdf: GET "/api/estimates/{id}/pdf", "getEstimatePdf", Key => bills::pdf::<EstimateKind>;
    ListEstimateActivity: GET "/api/estimates/{id}/activity", "listEstimateActivity", Key => activity::estimate;

    ListInvoices: GET "/api/invoices", "listInvoices", Key => bills::list::<InvoiceKind>;
    CreateInvoice: POST "/api/invoices", "createInvoice", Key => bills::create::<InvoiceKind>;
    GetInvoice: GET "/api/invoices/{id}", "getInvoice", Key => bills::get::<InvoiceKind>;
    UpdateInvoice: PATCH "/api/invoices/{id}", "updateInvoice", Key => bills::update::<InvoiceKind>;
    DeleteInvoice: DELETE "/api/invoices/{id}", "deleteInvoice", Key => bills::delete::<InvoiceKind>;
    SetInvoiceItems: PUT "/api/invoices/{id}/items", "setInvoiceItems", Key => bills::items::<InvoiceKind>;
    SetInvoiceStatus: PUT "/api/invoices/{id}/status", "setInvoiceStatus", Key => bills::status::<InvoiceKind>;
    SetInvoiceTags: PUT "/api/invoices/{id}/tags", "setInvoiceTags", Key => bills::tags::<InvoiceKind>;
    CloneInvoice: POST "/api/invoices/{id}/clone", "cloneInvoice", Key => bills::clone::<InvoiceKind>;
    PublishInvoice: PUT "/api/invoices/{id}/publish", "publishInvoice", Key => bills::publish::<InvoiceKind>;
    SendInvoiceEmail: POST "/api/invoices/{id}/send-email", "sendInvoiceEmail", Key => bills::send_email::<InvoiceKind>;
    MakeInvoiceLink: POST "/api/invoices/{id}/link", "makeInvoiceLink", Key => bills::make_link::<InvoiceKind>;
    RevokeInvoiceLink: DELETE "/api/invoices/{id}/link", "revokeInvoiceLink", Key => bills::revoke_link::<InvoiceKind>;
    GetInvoicePdf: GET "/api/invoices/{id}/pdf", "getInvoicePdf", Key => bills::pdf::<InvoiceKind>;
    GetInvoiceEinvoice: GET "/api/invoices/{id}/einvoice", "getInvoiceEinvoice", Key => einvoices::invoice;
    GetInvoiceEinvoiceReadiness: GET "/api/invoices/{id}/einvoice/readiness", "getInvoiceEinvoiceReadiness", Key => einvoices::invoice_readiness;
    ListInvoiceActivity: GET "/api/invoices/{id}/activity", "listInvoiceActivity", Key => activity::invoice;
    IssueCreditNote: POST "/api/invoices/{id}/credit-notes", "issueCreditNote", Key => credit_notes::issue;

    ListCreditNotes: GET "/api/credit-notes", "listCreditNotes", Key => credit_notes::list;
    GetCreditNote: GET "/api/credit-notes/{id}", "getCreditNote", Key => credit_notes::get;
    GetCreditNotePdf: GET "/api/credit-notes/{id}/pdf", "getCreditNotePdf", Key => credit_notes::pdf;
    GetCreditNoteEinvoice: GET "/api/credit-notes/{id}/einvoice", "getCreditNoteEinvoice", Key => einvoices::credit_note;
    GetCreditNoteEinvoiceReadiness: GET "/api/credit-notes/{id}/einvoice/readiness", "getCreditNoteEinvoiceReadiness", Key => einvoices::credit_note_readiness;
    ListCreditNoteActivity: GET "/api/credit-notes/{id}/activity", "listCreditNoteActivity", Key => activity::credit_note;
    SendCreditNoteEmail: POST "/api/credit-notes/{id}/send-email", "sendCreditNoteEmail", Key => credit_notes::send_email;
    MakeCreditNoteLink: POST "/api/credit-notes/{id}/link", "makeCreditNoteLink", Key => credit_notes::make_link;
    RevokeCreditNoteLink: DELETE "/api/credit-notes/{id}/link", "revokeCreditNoteLink", Key => credit_notes::revoke_link;

    ListRecurringInvoices: GET "/api/recurring-invoices", "listRecurringInvoices", Key => recurring_invoices::list;
    CreateRecurringInvoice: POST "/api/recurring-invoices", "createRecurringInvoice", Key => recurring_invoices::create;
    GetRecurringInvoice: GET "/api/recurring-invoices/{id}", "getRecurringInvoice", Key => recurring_invoices::get;
    UpdateRecurringInvoice: PATCH "/api/recurring-invoices/{id}", "updateRecurringInvoice", Key => recurring_invoices::update;
    DeleteRecurringInvoice: DELETE "/api/recurring-invoices/{id}", "deleteRecurringInvoice", Key => recurring_invoices::delete;
    ListRecurringInvoiceInvoices: GET "/api/recurring-invoices/{id}/invoices", "listRecurringInvoiceInvoices", Key => recurring_invoices::invoices;
    ListRecurringInvoiceActivity: GET "/api/recurring-invoices/{id}/activity", "listRecurringInvoiceActivity", Key => activity::recurring_invoice;

    ListMilestones: GET "/api/milestones", "listMilestones", Key => milestones::list;
    CreateMilestone: POST "/api/milestones", "createMilestone", Key => milestones::create;
    ReorderMilestones: PUT "/api/milestones/positions", "reorderMilestones", Key => milestones::reorder;
    GetMilestone: GET "/api/milestones/{id}", "getMilestone", Key => milestones::get;
    ListMilestoneActivity: GET "/api/milestones/{id}/activity", "listMilestoneActivity", Key => activity::milestone;
    UpdateMilestone: PATCH "/api/milestones/{id}", "updateMilestone", Key => milestones::update;
    DeleteMilestone: DELETE "/api/milestones/{id}", "deleteMilestone", Key => milestones::delete;

    ListNotes: GET "/api/notes", "listNotes", Key => notes::list;
    CreateNote: POST "/api/notes", "createNote", Key => notes::create;
    GetNote: GET "/api/notes/{id}", "getNote", Key => notes::get;
    ListNoteActivity: GET "/api/notes/{id}/activity", "listNoteActivity", Key => activity::note;
    UpdateNote: PATCH "/api/notes/{id}", "updateNote", Key => notes::update;
    DeleteNote: DELETE "/api/notes/{id}", "deleteNote", Key => notes::delete;
    SetNoteTags: PUT "/api/notes/{id}/tags", "setNoteTags", Key => notes::tags;

    ListPayments: GET "/api/payments", "listPayments", Key => payments::list;
    RecordPayment: POST "/api/payments", "recordPayment", Key => payments::create;
    GetPayment: GET "/api/payments/{id}", "getPayment", Key => payments::get;
    ListPaymentActivity: GET "/api/payments/{id}/activity", "listPaymentActivity", Key => activity::payment;
    DeletePayment: DELETE "/api/payments/{id}", "deletePayment", Key => payments::delete;

    GetCompany: GET "/api/company", "getCompany", Key => company::get;
    UpdateCompany: PATCH "/api/company", "updateCompany", Key => company::update;

    ListClients: GET "/api/clients", "listClients", Key => clients::list;
    CreateClient: POST "/api/clients", "createClient", Key => clients::create;
    GetClient: GET "/api/clients/{id}", "getClient", Key => clients::get;
    ListClientActivity: GET "/api/clients/{id}/activity", "listClientActivity", Key => activity::client;
    UpdateClient: PATCH "/api/clients/{id}", "updateClient", Key => clients::update;
    DeleteClient: DELETE "/api/clients/{id}", "deleteClient", Key => clients::delete;

    ListTaxRates: GET "/api/tax-rates", "listTaxRates", Key => tax_rates::list;
    CreateTaxRate: POST "/api/tax-rates", "createTaxRate", Key => tax_rates::create;
    GetTaxRate: GET "/api/tax-rates/{id}", "getTaxRate", Key => tax_rates::get;
    ListTaxRateActivity: GET "/api/tax-rates/{id}/activity", "listTaxRateActivity", Key => activity::tax_rate;
    UpdateTaxRate: PATCH "/api/tax-rates/{id}", "updateTaxRate", Key => tax_rates::update;
    DeleteTaxRate: DELETE "/api/tax-rates/{id}", "deleteTaxRate", Key => tax_rates::delete;

    ListProjects: GET "/api/projects", "listProjects", Key => projects::list;
    CreateProject: POST "/api/projects", "createProject", Key => projects::create;
    GetProject: GET "/api/projects/{id}", "getProject", Key => projects::get;
    ListProjectActivity: GET "/api/projects/{id}/activity", "listProjectActivity", Key => activity::project;
    UpdateProject: PATCH "/api/projects/{id}", "updateProject", Key => projects::update;
    DeleteProject: DELETE "/api/projects/{id}", "deleteProject", Key => projects::delete;

    ListActivity: GET "/api/activity", "listActivity", Key => activity::list;

    GetMe: GET "/api/users/me", "getMe", Key => users::me;
    UpdateMe: PATCH "/api/users/me", "updateMe", Key => users::update_me;

    ListWebhooks: GET "/api/webhooks", "listWebhooks", Key => webhooks::list;
    CreateWebhook: POST "/api/webhooks", "createWebhook", Key => webhooks::create;
    GetWebhook: GET "/api/webhooks/{id}", "getWebhook", Key => webhooks::get;
    UpdateWebhook: PATCH "/api/webhooks/{id}", "updateWebhook", Key => webhooks::update;
    DeleteWebhook: DELETE "/api/webhooks/{id}", "deleteWebhook", Key => webhooks::delete;
    RotateWebhookSecret: POST "/api/webhooks/{id}/rotate-secret", "rotateWebhookSecret", Key => webhooks::rotate_secret;
    TestWebhook: POST "/api/webhooks/{id}/test", "testWebhook", Key => webhooks::test;
    ListWebhookDeliveries: GET "/api/webhooks/{id}/deliveries", "listWebhookDeliveries", Key => webhooks::deliveries;
    ListWebhookActivity: GET "/api/webhooks/{id}/activity", "listWebhookActivity", Key => activity::webhook;
    RetryWebhookDelivery: POST "/api/webhooks/{id}/deliveries/{delivery_id}/retry", "retryWebhookDelivery", Key => webhooks::retry_delivery;

    ListEmails: GET "/api/emails", "listEmails", Key => emails::list;
    GetEmail: GET "/api/emails/{id}", "getEmail", Key => emails::get;

    ClientPage: GET "/c/{token}", "clientPage", Client => client::page;
    ClientPdf: GET "/c/{token}/pdf", "clientPdf", Client => client::pdf;
    ClientEinvoice: GET "/c/{token}/einvoice", "clientEinvoice", Client => client::einvoice;
    ClientAccept: POST "/c/{token}/accept", "clientAccept", Client => client::accept;
    ClientDecline: POST "/c/{token}/decline", "clientDecline", Client => client::decline;
}

/// The routes of one path template.
#[derive(Debug)]
struct PathRoutes {
    template: &'static str,
    methods: Vec<&'static Route>,
}

/// What a request's method and path resolve to.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved<'p> {
    /// A route (its path template names it in logs) and its path's one parameter (`{id}`,
    /// `{token}`), if it has one.
    Found {
        /// The route.
        route: &'static Route,
        /// The path's first parameter's segment.
        id: Option<&'p str>,
        /// The path's second parameter's segment (`{delivery_id}`), if it has one.
        sub_id: Option<&'p str>,
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
        for route in ROUTES {
            match paths.iter_mut().find(|p| p.template == route.path) {
                Some(p) => p.methods.push(route),
                None => paths.push(PathRoutes {
                    template: route.path,
                    methods: vec![route],
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
        match routes.methods.iter().find(|r| r.method == *wanted) {
            Some(route) => Resolved::Found {
                route,
                id: matched.params.iter().next().map(|(_, value)| value),
                sub_id: matched.params.iter().nth(1).map(|(_, value)| value),
            },
            None => {
                let mut allow: Vec<&str> = Vec::new();
                for route in &routes.methods {
                    allow.push(route.method.as_str());
                    if route.method == Method::GET {
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
    use crm_core::scope::Level;

    use super::*;

    /// The endpoint a request resolves to, if any.
    fn endpoint(r: &Router, method: Method, path: &str) -> Option<Endpoint> {
        match r.resolve(&method, path) {
            Resolved::Found { route, .. } => Some(route.endpoint),
            _ => None,
        }
    }

    #[test]
    fn paths_resolve_to_endpoints_with_their_id() {
        let r = Router::new().unwrap();
        let Resolved::Found { route, id, .. } = r.resolve(&Method::PUT, "/api/estimates/12/items")
        else {
            panic!("PUT items resolves");
        };
        assert_eq!(route.endpoint, Endpoint::SetEstimateItems);
        assert_eq!(route.path, "/api/estimates/{id}/items");
        assert_eq!(id, Some("12"));
        assert_eq!(
            endpoint(&r, Method::PUT, "/api/milestones/positions"),
            Some(Endpoint::ReorderMilestones)
        );
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
            Resolved::Found { route, id: Some("7"), .. } if route.endpoint == Endpoint::GetMilestone
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
            endpoint(&r, Method::HEAD, "/api/notes/3"),
            Some(Endpoint::GetNote)
        );
        assert_eq!(
            endpoint(&r, Method::HEAD, "/healthz"),
            Some(Endpoint::Health)
        );
        assert!(matches!(
            r.resolve(&Method::HEAD, "/api/milestones/positions"),
            Resolved::MethodNotAllowed { .. }
        ));
    }

    #[test]
    fn endpoints_and_operation_ids_are_unique() {
        let mut endpoints = std::collections::HashSet::new();
        let mut operations = std::collections::HashSet::new();
        let mut routes = std::collections::HashSet::new();
        for r in ROUTES {
            assert!(endpoints.insert(r.endpoint), "{:?} twice", r.endpoint);
            assert!(
                operations.insert(r.operation_id),
                "{} twice",
                r.operation_id
            );
            assert!(
                routes.insert((r.method.clone(), r.path)),
                "{} {} twice",
                r.method,
                r.path
            );
        }
    }

    #[test]
    fn every_keyed_route_needs_its_areas_scope_and_no_other_route_needs_one() {
        for r in ROUTES {
            match r.access {
                Access::Key => {
                    let need = r.need.unwrap_or_else(|| panic!("{} {}", r.method, r.path));
                    // A record's history is the activity area's (API.md §21).
                    let area = match r.path.ends_with("/activity") {
                        true => Some("activity"),
                        false => r.path.trim_start_matches("/api/").split('/').next(),
                    };
                    assert_eq!(Some(need.area.as_str()), area, "{} {}", r.method, r.path);
                    let read = r.method == Method::GET;
                    assert_eq!(
                        need.level,
                        if read { Level::Read } else { Level::Write },
                        "{} {}",
                        r.method,
                        r.path
                    );
                }
                Access::Public | Access::Client => assert_eq!(r.need, None, "{}", r.path),
            }
        }
        let find = |e: Endpoint| ROUTES.iter().find(|r| r.endpoint == e).unwrap();
        assert_eq!(
            find(Endpoint::CloneEstimate).need.map(|n| n.to_string()),
            Some("estimates:write".into())
        );
        assert_eq!(
            find(Endpoint::GetInvoicePdf).need.map(|n| n.to_string()),
            Some("invoices:read".into())
        );
        assert_eq!(
            find(Endpoint::ReorderMilestones)
                .need
                .map(|n| n.to_string()),
            Some("milestones:write".into())
        );
    }

    #[test]
    fn unknown_paths_are_not_found() {
        let r = Router::new().unwrap();
        assert_eq!(r.resolve(&Method::GET, "/api/receipts"), Resolved::NotFound);
        assert_eq!(r.resolve(&Method::GET, "/api/users"), Resolved::NotFound);
        assert_eq!(
            r.resolve(&Method::GET, "/api/notes/3/extra"),
            Resolved::NotFound
        );
    }

    #[test]
    fn the_table_has_every_endpoint_of_the_five_areas() {
        let api: Vec<_> = ROUTES.iter().filter(|r| r.access == Access::Key).collect();
        let count = |prefix: &str| api.iter().filter(|r| r.path.starts_with(prefix)).count();
        assert_eq!(count("/api/categories"), 8);
        assert_eq!(count("/api/contracts"), 8);
        assert_eq!(count("/api/estimates"), 16);
        assert_eq!(count("/api/milestones"), 7);
        assert_eq!(count("/api/notes"), 7);
        assert_eq!(count("/api/payments"), 5);
        assert_eq!(count("/api/company"), 2);
        assert_eq!(count("/api/clients"), 6);
        assert_eq!(count("/api/tax-rates"), 6);
        assert_eq!(count("/api/projects"), 6);
        assert_eq!(count("/api/users"), 2);
    }
}
