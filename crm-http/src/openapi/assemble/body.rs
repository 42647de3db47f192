//! A request body: its three media types from one definition.

use serde_json::{Map, Value, json};

use super::{Bodies, object, only};

/// The request body: its name and its component, from a definition holding `name`,
/// `examples`, the JSON `schema`, an optional `description` (the shared paragraph on the
/// encodings follows it), an optional `base` (a body of `bodies.json` whose keys this one
/// completes), and an optional `form` schema.
///
/// The form-urlencoded schema is `form`, or, when absent, derived from `schema`: each
/// property as it is, except that a `…Input` schema becomes its `…Text` sibling (a form field
/// is text), `Blank` becomes `{"const": ""}` and an integer `enum` a string one. A property
/// holding an array or an object has bracket names to document, so its body needs `form`.
/// The form examples are the JSON ones with bracket names and text values
/// (`{"items": [{"rate": 2}]}` → `{"items[0][rate]": "2"}`), `encoding` explodes every
/// `name[]`, and multipart is form-urlencoded with the part-name rule added.
pub(super) fn request_body(
    at: &str,
    given: &Map<String, Value>,
    bodies: &Bodies,
    schemas: &Map<String, Value>,
) -> Result<(String, Value), String> {
    let at = format!("{at}: body");
    only(
        given,
        &["name", "base", "description", "schema", "examples", "form"],
        &at,
    )?;
    let mut definition = Map::new();
    if let Some(base) = given.get("base") {
        let name = base.as_str().unwrap_or_default();
        let found = bodies
            .bases
            .get(name)
            .ok_or_else(|| format!("{at}: no base `{name}` in openapi/bodies.json"))?;
        definition = object(found, &format!("openapi/bodies.json: {name}"))?.clone();
    }
    for (key, value) in given {
        let merged = match (definition.get(key), value) {
            // A base's schema (or form) extended: the given properties added to the base's
            // (a same name replaced), every other given member replacing the base's.
            (Some(Value::Object(base)), Value::Object(own)) if key == "schema" || key == "form" => {
                Value::Object(extended(base, own))
            }
            _ => value.clone(),
        };
        definition.insert(key.clone(), merged);
    }
    let name = definition
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{at}: `name` (its component name) is required"))?;
    let schema = definition
        .get("schema")
        .ok_or_else(|| format!("{at}: `schema` is required"))?;
    let examples = definition
        .get("examples")
        .and_then(Value::as_object)
        .filter(|e| !e.is_empty())
        .ok_or_else(|| format!("{at}: `examples` is required"))?;
    let form = match definition.get("form") {
        Some(form) => form.clone(),
        None => form_schema(schema, schemas).map_err(|e| format!("{at}: {e}"))?,
    };
    let form = form_media(form, examples, &at)?;
    let mut multipart = form.clone();
    if let Some(Value::Object(schema)) = multipart.get_mut("schema") {
        schema.insert("propertyNames".into(), bodies.property_names.clone());
    }
    let description = match definition.get("description").and_then(Value::as_str) {
        Some(own) => format!("{own}\n\n{}", bodies.description),
        None => bodies.description.clone(),
    };
    let component = json!({
        "description": description,
        "required": true,
        "content": {
            "application/json": {"schema": schema, "examples": examples},
            "application/x-www-form-urlencoded": form,
            "multipart/form-data": multipart
        }
    });
    Ok((name.to_owned(), component))
}

/// `base` with `own`'s members: `properties` joined (own's after base's, a same name
/// replaced), any other member of `own` replacing base's.
fn extended(base: &Map<String, Value>, own: &Map<String, Value>) -> Map<String, Value> {
    let mut out = base.clone();
    for (key, value) in own {
        match (out.get_mut(key), value) {
            (Some(Value::Object(props)), Value::Object(more)) if key == "properties" => {
                props.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    out
}

/// The form-urlencoded media type: the `form` schema, the examples with bracket names and
/// text values, and the `encoding` that explodes every `name[]`.
fn form_media(
    form: Value,
    examples: &Map<String, Value>,
    at: &str,
) -> Result<Map<String, Value>, String> {
    let mut form_examples = Map::new();
    for (key, example) in examples {
        let mut example = object(example, &format!("{at}: examples.{key}"))?.clone();
        let value = example.get("value").cloned().unwrap_or(Value::Null);
        let mut flat = Map::new();
        bracketed(&value, "", &mut flat).map_err(|e| format!("{at}: examples.{key}: {e}"))?;
        example.insert("value".into(), Value::Object(flat));
        form_examples.insert(key.clone(), Value::Object(example));
    }
    let form = bare_names_apart(form);
    let exploded: Map<String, Value> = form["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(name, _)| name.ends_with("[]"))
        .map(|(name, _)| (name.clone(), json!({"style": "form", "explode": true})))
        .collect();
    let mut media = Map::new();
    media.insert("schema".into(), form);
    media.insert("examples".into(), Value::Object(form_examples));
    if !exploded.is_empty() {
        media.insert("encoding".into(), Value::Object(exploded));
    }
    Ok(media)
}

/// `form` with its bare names moved out of `properties`: a name `x` beside `x[]` (the same
/// field, sent empty to clear it) and a name whose schema is `{"not": {}}` (one that must not
/// appear) are no fields a client fills in, and client generators map both `x` and `x[]` to
/// one identifier, refusing the body (openapi-python-client drops it whole, JSON included).
/// Each such name keeps its rule as an `allOf` member, `{"if": {"required": [x]}, "then":
/// {"properties": {x: …}}}`: a validator holds a request to it exactly as before, and a
/// generator, which reads only `properties`, makes one field per real name.
fn bare_names_apart(mut form: Value) -> Value {
    let Some(properties) = form.get_mut("properties").and_then(Value::as_object_mut) else {
        return form;
    };
    let bare: Vec<String> = properties
        .iter()
        .filter(|(name, schema)| {
            properties.contains_key(&format!("{name}[]")) || schema.get("not") == Some(&json!({}))
        })
        .map(|(name, _)| name.clone())
        .collect();
    let mut rules = Vec::new();
    for name in bare {
        if let Some(schema) = properties.remove(&name) {
            rules.push(json!({
                "if": {"required": [name]},
                "then": {"properties": {name: schema}}
            }));
        }
    }
    if rules.is_empty() {
        return form;
    }
    if let Some(form) = form.as_object_mut() {
        match form.get_mut("allOf") {
            Some(Value::Array(all)) => all.extend(rules),
            _ => {
                form.insert("allOf".into(), Value::Array(rules));
            }
        }
    }
    form
}

/// The form-urlencoded schema of a JSON body schema whose properties are all scalar.
fn form_schema(schema: &Value, schemas: &Map<String, Value>) -> Result<Value, String> {
    let mut form = schema.as_object().ok_or("`schema` is an object")?.clone();
    let properties = schema["properties"]
        .as_object()
        .ok_or("`schema` has no `properties`")?;
    let mut out = Map::new();
    for (name, property) in properties {
        if let Some(members) = group_members(property, schemas) {
            // A group (`address`): sent empty it is cleared, else each member is a
            // bracket name of its own (`address[city]`).
            out.insert(name.clone(), json!({"const": ""}));
            for (member, schema) in members {
                let text = form_value(schema, schemas)
                    .map_err(|e| format!("the property {name}[{member}] {e}"))?;
                out.insert(format!("{name}[{member}]"), text);
            }
            continue;
        }
        let text = form_value(property, schemas)
            .map_err(|e| format!("the property {name} {e}: give the body a `form` schema"))?;
        out.insert(name.clone(), text);
    }
    form.insert("properties".into(), Value::Object(out));
    Ok(Value::Object(form))
}

/// The members of a group property: one whose schema (or a non-blank alternative of its
/// `anyOf`) names an object schema of `components` with `properties`.
fn group_members<'s>(
    property: &'s Value,
    schemas: &'s Map<String, Value>,
) -> Option<&'s Map<String, Value>> {
    let named = |v: &'s Value| {
        let name = v["$ref"].as_str()?.strip_prefix("#/components/schemas/")?;
        let schema = schemas.get(name)?;
        (schema["type"] == "object").then(|| schema["properties"].as_object())?
    };
    named(property).or_else(|| property["anyOf"].as_array()?.iter().find_map(named))
}

/// One property's schema as a form field (text).
fn form_value(value: &Value, schemas: &Map<String, Value>) -> Result<Value, String> {
    match value {
        Value::Object(map) => {
            if map.len() == 1 && map.get("$ref") == Some(&json!("#/components/schemas/Blank")) {
                return Ok(json!({"const": ""}));
            }
            let types: Vec<&str> = match map.get("type") {
                Some(Value::String(t)) => vec![t.as_str()],
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if types == ["integer"]
                && let Some(Value::Array(values)) = map.get("enum")
            {
                let mut out = map.clone();
                out.insert("type".into(), json!("string"));
                let texts = values
                    .iter()
                    .map(|v| match v {
                        Value::Number(n) => Ok(json!(n.to_string())),
                        _ => Err("has an integer enum with a value that is no number".to_owned()),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                out.insert("enum".into(), Value::Array(texts));
                return Ok(Value::Object(out));
            }
            if let Some(t) = types
                .iter()
                .find(|t| ["array", "object", "integer", "number", "boolean"].contains(*t))
            {
                return Err(format!("is of type {t}"));
            }
            let mut out = Map::new();
            for (key, member) in map {
                let member = match (key.as_str(), member.as_str()) {
                    ("$ref", Some(target)) => {
                        let name = target.trim_start_matches("#/components/schemas/");
                        match name.strip_suffix("Input").map(|stem| format!("{stem}Text")) {
                            Some(text) if schemas.contains_key(&text) => {
                                json!(format!("#/components/schemas/{text}"))
                            }
                            _ => member.clone(),
                        }
                    }
                    _ => form_value(member, schemas)?,
                };
                out.insert(key.clone(), member);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|item| form_value(item, schemas))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}

/// Writes `value` (a JSON example) as form pairs under bracket names into `out`.
fn bracketed(value: &Value, prefix: &str, out: &mut Map<String, Value>) -> Result<(), String> {
    let fields = value.as_object().ok_or("an example `value` is an object")?;
    for (key, member) in fields {
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}[{key}]")
        };
        match member {
            Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
                let texts = items.iter().map(text).collect::<Result<Vec<_>, _>>()?;
                out.insert(format!("{name}[]"), Value::Array(texts));
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    bracketed(item, &format!("{name}[{i}]"), out)?;
                }
            }
            Value::Object(_) => bracketed(member, &name, out)?,
            scalar => {
                out.insert(name, text(scalar)?);
            }
        }
    }
    Ok(())
}

/// A scalar of an example as form text.
fn text(value: &Value) -> Result<Value, String> {
    match value {
        Value::String(_) => Ok(value.clone()),
        Value::Number(n) => Ok(json!(n.to_string())),
        other => Err(format!(
            "{other} has no form text: give the example as text"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_examples_use_bracket_names() {
        let mut out = Map::new();
        bracketed(
            &json!({"items": [{"rate": 2, "unit": "h"}, {"rate": "1.5"}], "tags": ["a", 3]}),
            "",
            &mut out,
        )
        .unwrap();
        assert_eq!(
            Value::Object(out),
            json!({
                "items[0][rate]": "2", "items[0][unit]": "h", "items[1][rate]": "1.5",
                "tags[]": ["a", "3"]
            })
        );
    }

    #[test]
    fn bare_names_leave_the_properties_and_keep_their_rule() {
        let form = bare_names_apart(json!({
            "type": "object",
            "properties": {
                "tags[]": {"type": "array"},
                "tags": {"const": ""},
                "items": {"not": {}},
                "items[0][rate]": {"type": "string"},
                "note": {"type": "string"}
            },
            "allOf": [{"anyOf": [{"required": ["tags[]"]}, {"required": ["tags"]}]}]
        }));
        assert_eq!(
            form["properties"],
            json!({
                "tags[]": {"type": "array"},
                "items[0][rate]": {"type": "string"},
                "note": {"type": "string"}
            })
        );
        // The rules follow the body's own (the order of the others follows the map's).
        let all = form["allOf"].as_array().unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0]["anyOf"][1], json!({"required": ["tags"]}));
        for (name, rule) in [
            ("tags", json!({"const": ""})),
            ("items", json!({"not": {}})),
        ] {
            let member = json!({"if": {"required": [name]}, "then": {"properties": {name: rule}}});
            assert!(all.contains(&member), "{name}: {form}");
        }
        let plain = json!({"type": "object", "properties": {"note": {"type": "string"}}});
        assert_eq!(bare_names_apart(plain.clone()), plain);
    }

    #[test]
    fn a_true_or_null_example_value_has_no_form_text() {
        let mut out = Map::new();
        let error = bracketed(&json!({"on": true}), "", &mut out).unwrap_err();
        assert!(error.contains("give the example as text"), "{error}");
    }
}
