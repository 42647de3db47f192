//! The client's page in a real browser (API.md §12): Debian's Chromium driven over the
//! W3C WebDriver protocol by its chromedriver, both installed by `scripts/install-browser`.
//! The test opens a published estimate's link at a phone's and a desktop's width (the
//! screenshots stay in `target/tmp/client-page/` to be looked at), runs axe-core
//! (`scripts/install-axe`) on the estimate page, the decided page and the 404 page, clicks
//! Accept, and reads the estimate back through the API.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::common::{Body, TestServer, client, form, id_of};

/// A chromedriver process and one browser session in it, ended on drop.
struct Browser {
    driver: Child,
    http: reqwest::Client,
    session: String,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session `width` wide.
    async fn start(width: u32) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(driver_path())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        crm_http::ops::webhook::install_crypto_provider();
        let http = reqwest::Client::new();
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while http.get(format!("{base}/status")).send().await.is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = scratch().join(format!("profile-{port}"));
        let created: Value = http
            .post(format!("{base}/session"))
            .json(&json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": "/usr/bin/chromium",
                    "args": [
                        "--headless=new", "--no-sandbox", "--disable-gpu",
                        "--disable-dev-shm-usage", "--no-first-run",
                        "--disable-background-networking",
                        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                        format!("--window-size={width},900"),
                        format!("--user-data-dir={}", profile.display()),
                    ]
                }
            }}}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session = created["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_owned();
        Browser {
            driver,
            http,
            session: format!("{base}/session/{session}"),
        }
    }

    async fn command(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self.http.request(method, format!("{}{path}", self.session));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer: Value = request.send().await.unwrap().json().await.unwrap();
        answer["value"].clone()
    }

    async fn open(&self, url: &str) {
        self.command(reqwest::Method::POST, "/url", Some(json!({"url": url})))
            .await;
    }

    async fn source(&self) -> String {
        let v = self.command(reqwest::Method::GET, "/source", None).await;
        v.as_str().unwrap_or_default().to_owned()
    }

    async fn screenshot(&self, name: &str) -> PathBuf {
        let v = self
            .command(reqwest::Method::GET, "/screenshot", None)
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().expect("a screenshot"))
            .unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let path = scratch().join(format!("{name}.png"));
        std::fs::write(&path, &png).unwrap();
        path
    }

    /// Clicks the first element matching `css`.
    async fn click(&self, css: &str) {
        let found = self
            .command(
                reqwest::Method::POST,
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        let element = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_owned();
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .await;
    }

    /// The serious and critical violations axe-core finds on the page shown (after
    /// checking that it ran: injected, and passing rules).
    async fn serious_violations(&self, axe: &str) -> Vec<String> {
        let loaded = self
            .command(
                reqwest::Method::POST,
                "/execute/sync",
                Some(json!({"script": format!("{axe}; return typeof axe;"), "args": []})),
            )
            .await;
        assert_eq!(loaded, "object", "axe-core was not injected");
        let script = "const done = arguments[arguments.length - 1];\
            axe.run(document).then(r => done({passes: r.passes.length, serious: r.violations\
              .filter(v => v.impact === 'serious' || v.impact === 'critical')\
              .map(v => v.impact + ' ' + v.id + ': ' + v.help)}))\
            .catch(e => done({passes: 0, serious: ['axe failed: ' + e]}));";
        let found = self
            .command(
                reqwest::Method::POST,
                "/execute/async",
                Some(json!({"script": script, "args": []})),
            )
            .await;
        assert!(
            found["passes"].as_u64().unwrap_or(0) >= 5,
            "axe answered {found}"
        );
        found["serious"]
            .as_array()
            .unwrap_or_else(|| panic!("axe answered {found}"))
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

impl Drop for Browser {
    /// Ends the session first (chromedriver then quits its Chromium: killing chromedriver
    /// alone left the browser's processes running), then stops chromedriver.
    fn drop(&mut self) {
        if let Some((host, path)) = self
            .session
            .strip_prefix("http://")
            .and_then(|rest| rest.split_once('/'))
            && let Ok(mut stream) = std::net::TcpStream::connect(host)
        {
            use std::io::{Read, Write};
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            let request =
                format!("DELETE /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
            if stream.write_all(request.as_bytes()).is_ok() {
                let _ = stream.read_to_end(&mut Vec::new());
            }
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// chromedriver, installed with Chromium by the project's script when missing.
fn driver_path() -> PathBuf {
    let driver = Path::new("/usr/bin/chromedriver");
    if !driver.exists() || !Path::new("/usr/bin/chromium").exists() {
        run_script("install-browser", &[]);
    }
    driver.to_path_buf()
}

/// axe-core's script, installed by the project's script when missing.
fn axe_source() -> String {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/axe");
    let file = folder.join("node_modules/axe-core/axe.min.js");
    if !file.exists() {
        run_script("install-axe", &[folder.to_str().unwrap()]);
    }
    std::fs::read_to_string(file).expect("axe.min.js")
}

fn run_script(name: &str, args: &[&str]) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(name);
    let status = Command::new(&script)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
    assert!(status.success(), "{} failed", script.display());
}

fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("client-page");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test]
async fn a_client_reads_the_estimate_on_a_phone_and_a_desktop_and_accepts_it() {
    let s = TestServer::start().await;
    let category = s.default_category("estimate").await.to_string();
    let created = s
        .post(
            "/api/estimates",
            form(&[
                ("bill_clientid", &client(&s, 1).to_string()),
                ("bill_categoryid", &category),
                ("bill_date", "2026-06-15"),
                ("bill_expiry_date", "2099-01-01"),
                ("bill_terms", "Payment within 30 days."),
            ]),
        )
        .await;
    let id = id_of(created.data());
    let items = s
        .put(
            &format!("/api/estimates/{id}/items"),
            form(&[
                (
                    "items[0][description]",
                    "Design of the new storefront, three rounds",
                ),
                ("items[0][unit]", "hours"),
                ("items[0][quantity]", "1.5"),
                ("items[0][rate]", "1385.27"),
                ("items[1][description]", "Hosting, twelve months"),
                ("items[1][quantity]", "12"),
                ("items[1][rate]", "9.99"),
            ]),
        )
        .await;
    assert_eq!(items.status, StatusCode::OK, "{:?}", items.json);
    let final_amount = items.data()["totals"]["final_amount"]
        .as_str()
        .unwrap()
        .to_owned();
    let published = s
        .put(&format!("/api/estimates/{id}/publish"), Body::None)
        .await;
    let url = published.data()["client_link"]["url"].as_str().unwrap();
    let token = url.rsplit_once("/c/").unwrap().1;
    let page = format!("{}/c/{token}", s.base);
    let axe = axe_source();

    let phone = Browser::start(375).await;
    phone.open(&page).await;
    let html = phone.source().await;
    let number = published.data()["number"].as_str().unwrap();
    assert!(html.contains(&format!("Estimate {number}")), "{html}");
    assert!(html.contains(&final_amount), "{final_amount} not shown");
    phone.screenshot("estimate-375px").await;
    let found = phone.serious_violations(&axe).await;
    assert!(found.is_empty(), "the estimate page: {found:?}");
    drop(phone);

    let desktop = Browser::start(1400).await;
    desktop.open(&page).await;
    desktop.screenshot("estimate-1400px").await;
    desktop.click("form[action$='/accept'] button").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let decided = loop {
        let html = desktop.source().await;
        if html.contains("Accepted</strong> on") {
            break html;
        }
        assert!(
            Instant::now() < deadline,
            "the page did not state the decision: {html}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(!decided.contains("<form"), "no buttons once decided");
    desktop.screenshot("accepted-1400px").await;
    let found = desktop.serious_violations(&axe).await;
    assert!(found.is_empty(), "the decided page: {found:?}");
    let e = s.get(&format!("/api/estimates/{id}")).await;
    assert_eq!(e.data()["status"], "accepted");
    assert_eq!(e.data()["client_response"]["decision"], "accepted");

    desktop
        .open(&format!("{}/c/{}", s.base, "0".repeat(64)))
        .await;
    assert!(
        desktop
            .source()
            .await
            .contains("This link is no longer valid.")
    );
    desktop.screenshot("not-found-1400px").await;
    let found = desktop.serious_violations(&axe).await;
    assert!(found.is_empty(), "the 404 page: {found:?}");
}
