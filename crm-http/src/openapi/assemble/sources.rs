//! What the document is assembled from: the route table's rows, read from the text of
//! `router.rs`, and the definition files.

use std::path::Path;

/// One row of the route table, as the assembly needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RouteRow {
    /// `GET`, `POST`, …
    pub(crate) method: String,
    /// The path template (`/api/notes/{id}`).
    pub(crate) path: String,
    /// The operation id, which names the route's definition.
    pub(crate) operation_id: String,
    /// Whether anyone may call it (no key: `Public` and `Client` routes).
    pub(crate) public: bool,
    /// The scope a key needs for it (`estimates:write`), `None` for a public route: the
    /// first path segment after `/api/`, then `read` for `GET` and `write` otherwise. The
    /// router computes the same from the same row (`crm_core::scope::Need::of_route`), and
    /// refuses to compile a keyed route outside the known areas; a test holds the two
    /// readings equal.
    pub(crate) need: Option<String>,
}

impl RouteRow {
    /// Whether its method is one of `methods`.
    pub(super) fn method_is(&self, methods: &[&str]) -> bool {
        methods.contains(&self.method.as_str())
    }

    /// Whether its path has an `{id}` segment.
    pub(super) fn has_id(&self) -> bool {
        self.path.contains("{id}")
    }
}

/// The texts the document is assembled from, each with the name errors show.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources {
    /// `openapi/document.json`: `openapi`, `info`, `servers`, `security`, `tags`.
    pub(crate) document: String,
    /// `openapi/components.json`: the shared components.
    pub(crate) components: String,
    /// `openapi/bodies.json`: what every request body shares.
    pub(crate) bodies: String,
    /// The definitions (`routes.openapi.json`, `routes/<area>.openapi.json`), by file name.
    pub(crate) parts: Vec<(String, String)>,
}

/// The definition files of the crate whose `src/` is `src`: `routes.openapi.json` and every
/// `routes/*.openapi.json`, in the order of their names.
pub(crate) fn read_sources(src: &Path) -> Result<Sources, String> {
    let read =
        |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let mut files = vec![src.join("routes.openapi.json")];
    let routes = src.join("routes");
    let listed = std::fs::read_dir(&routes).map_err(|e| format!("{}: {e}", routes.display()))?;
    let mut areas = Vec::new();
    for entry in listed {
        let path = entry
            .map_err(|e| format!("{}: {e}", routes.display()))?
            .path();
        if path.to_string_lossy().ends_with(".openapi.json") {
            areas.push(path);
        }
    }
    areas.sort();
    files.extend(areas);
    let mut parts = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(src)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        parts.push((name, read(&file)?));
    }
    Ok(Sources {
        document: read(&src.join("openapi/document.json"))?,
        components: read(&src.join("openapi/components.json"))?,
        bodies: read(&src.join("openapi/bodies.json"))?,
        parts,
    })
}

/// The rows of the `route_table! { … }` invocation in the text of `router.rs`, each
/// `Name: METHOD "path", "operationId", Access => handler;`.
pub(crate) fn route_rows(router: &str) -> Result<Vec<RouteRow>, String> {
    let mut lines = router
        .lines()
        .enumerate()
        .skip_while(|(_, line)| line.trim_end() != "route_table! {");
    if lines.next().is_none() {
        return Err("router.rs: no `route_table! {` invocation".into());
    }
    let mut rows = Vec::new();
    for (at, line) in lines {
        let line = line.trim();
        if line == "}" {
            return Ok(rows);
        }
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        rows.push(route_row(line).ok_or_else(|| {
            format!(
                "router.rs:{}: cannot read the route `{line}` (the build reads rows written \
                 `Name: METHOD \"path\", \"operationId\", Access => handler;`, and a `Key` \
                 route's path starts `/api/<area>/`)",
                at + 1
            )
        })?);
    }
    Err("router.rs: the `route_table!` invocation has no closing `}`".into())
}

fn route_row(line: &str) -> Option<RouteRow> {
    let (_, rest) = line.split_once(": ")?;
    let (method, rest) = rest.split_once(" \"")?;
    let (path, rest) = rest.split_once("\", \"")?;
    let (operation_id, rest) = rest.split_once("\", ")?;
    let (access, _) = rest.split_once(" => ")?;
    let public = match access {
        "Public" | "Client" => true,
        "Key" => false,
        _ => return None,
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let need = if public {
        None
    } else {
        // A record's history is the activity area's, whatever the record's area (crm-core's
        // `Need::of_route`).
        let area = match path.ends_with("/activity") {
            true => "activity",
            false => path.strip_prefix("/api/")?.split('/').next()?,
        };
        let level = if method == "GET" { "read" } else { "write" };
        Some(format!("{area}:{level}"))
    };
    Some(RouteRow {
        method: method.into(),
        path: path.into(),
        operation_id: operation_id.into(),
        public,
        need,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(method: &str, path: &str, operation_id: &str, need: Option<&str>) -> RouteRow {
        RouteRow {
            method: method.into(),
            path: path.into(),
            operation_id: operation_id.into(),
            public: need.is_none(),
            need: need.map(str::to_owned),
        }
    }

    #[test]
    fn route_rows_are_read_from_the_route_table_invocation() {
        let text = "macro_rules! route_table {\n}\n\nroute_table! {\n    // health\n    \
                    Health: GET \"/healthz\", \"health\", Public => routes::health;\n\n    \
                    GetNote: GET \"/api/notes/{id}\", \"getNote\", Key => notes::get;\n    \
                    Tag: PUT \"/api/notes/{id}/tags\", \"tag\", Key => notes::tags;\n}\n";
        assert_eq!(
            route_rows(text).unwrap(),
            [
                route("GET", "/healthz", "health", None),
                route("GET", "/api/notes/{id}", "getNote", Some("notes:read")),
                route("PUT", "/api/notes/{id}/tags", "tag", Some("notes:write"))
            ]
        );
        let error = route_rows("route_table! {\n    Odd: GET \"/x\", Key => x;\n}\n").unwrap_err();
        assert!(error.contains("router.rs:2"), "{error}");
    }
}
