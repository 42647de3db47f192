//! The webhook writes: register, change, delete, rotate the secret, send a test event,
//! retry a delivery. An endpoint's URL is https to a public host (this server's default
//! rules), its events `*`: every key may subscribe to all it may read, while a list of types
//! needs a key that reads them (so the scope sweep's narrowest key, `webhooks:write`, could
//! not list any; `webhooks/access.rs` tests lists against scopes).

use serde_json::json;

use crate::sweep::body::{ALL, invalid};
use crate::sweep::document::Api;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The webhook targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let base =
        json!({"url": "https://hooks.example.com/in", "description": "Sweep", "events": ["*"]});
    let private = "The url may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private.";
    let create = Target::new(api, "createWebhook", "/api/webhooks".into(), base)
        .extra(
            "a loopback address",
            json!({"url": "https://127.0.0.1/in", "events": ["*"]}),
            ALL,
            invalid("url", private.to_owned()),
        )
        .extra(
            "plain http",
            json!({"url": "http://hooks.example.com/in", "events": ["*"]}),
            ALL,
            invalid("url", "The url must start with https://; http:// is accepted when the service runs with --webhook-allow-http.".to_owned()),
        );
    let endpoint = format!("/api/webhooks/{}", w.webhook);
    let update = Target::new(
        api,
        "updateWebhook",
        endpoint.clone(),
        json!({"description": "Sweep renamed", "events": ["*"]}),
    )
    .extra(
        "a link-local address",
        json!({"url": "https://169.254.169.254/latest"}),
        ALL,
        invalid("url", private.to_owned()),
    );
    let delete = Target::new(api, "deleteWebhook", endpoint.clone(), json!({}));
    let rotate = Target::new(
        api,
        "rotateWebhookSecret",
        format!("{endpoint}/rotate-secret"),
        json!({}),
    );
    let test = Target::new(api, "testWebhook", format!("{endpoint}/test"), json!({}));
    let retry = Target::new(
        api,
        "retryWebhookDelivery",
        format!("{endpoint}/deliveries/{}/retry", w.delivery),
        json!({}),
    );
    vec![create, update, delete, rotate, test, retry]
}
