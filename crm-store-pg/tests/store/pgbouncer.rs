//! The store behind PgBouncer in transaction pooling mode (Debian's PgBouncer 1.18, which
//! keeps no prepared statement across transactions): a real PgBouncer, started here on a
//! free port in front of the test database with two server connections, while another
//! client keeps sending `DISCARD ALL` (which drops every prepared statement of the server
//! connection it lands on). A named statement that outlived its transaction would be
//! "does not exist" (or, prepared again by another client, "already exists"); with
//! `pgbouncer` set, the store's operations all succeed.

use crm_core::bill::EstimateKind;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crm_core::estimate::{EstimateListQuery, NewEstimate};
use crm_core::note::{NoteListQuery, NoteUpdate};
use crm_store_pg::{Store, StoreConfig};

use crate::common::{ctx, new_bill, new_note, raw, seeded};

/// A PgBouncer of the test's own, stopped when dropped.
struct Bouncer {
    child: Child,
    port: u16,
    _folder: Folder,
}

impl Drop for Bouncer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A folder removed when dropped.
struct Folder(std::path::PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Starts PgBouncer (transaction pooling, `pool_size` server connections) in front of the
/// server of `config`.
fn bouncer(config: &tokio_postgres::Config, pool_size: usize) -> Bouncer {
    use tokio_postgres::config::Host;
    let binary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("PgBouncer is not installed: run scripts/install-cluster-tools (.ci/run does)");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        Some(Host::Unix(dir)) => dir.display().to_string(),
        None => "127.0.0.1".to_owned(),
    };
    let server_port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("postgres");
    let folder = std::env::temp_dir().join(format!("crm-pgbouncer-{port}"));
    std::fs::create_dir_all(&folder).unwrap();
    let ini = folder.join("pgbouncer.ini");
    std::fs::write(
        &ini,
        format!(
            "[databases]\n* = host={host} port={server_port} user={user}\n\
             [pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n\
             auth_type = trust\nauth_file = {users}\npool_mode = transaction\n\
             default_pool_size = {pool_size}\nmax_client_conn = 200\n\
             ignore_startup_parameters = extra_float_digits,options\n\
             logfile = {log}\n",
            users = folder.join("users.txt").display(),
            log = folder.join("pgbouncer.log").display(),
        ),
    )
    .unwrap();
    std::fs::write(folder.join("users.txt"), format!("\"{user}\" \"\"\n")).unwrap();
    let mut command = if is_root() {
        Command::new("chown")
            .args(["-R", "postgres:postgres"])
            .arg(&folder)
            .status()
            .unwrap();
        // PgBouncer drops root by itself (`-u`), so that the child killed when the test
        // ends is PgBouncer, not a `runuser` that would leave it running.
        let mut c = Command::new(binary);
        c.args(["-u", "postgres"]);
        c
    } else {
        Command::new(binary)
    };
    let child = command
        .arg(&ini)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "PgBouncer did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    Bouncer {
        child,
        port,
        _folder: Folder(folder),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_store_works_behind_pgbouncer_in_transaction_mode_with_unnamed_statements() {
    let s = seeded().await;
    let direct = s.db.config().pg_config().unwrap();
    // One server connection for the demonstration: every client lands on it.
    let single = bouncer(&direct, 1);
    let user = direct.get_user().unwrap_or("postgres").to_owned();
    let url_of = |port: u16| {
        format!(
            "host=127.0.0.1 port={port} user={user} dbname={}",
            s.db.name()
        )
    };
    let through: tokio_postgres::Config = url_of(single.port).parse().unwrap();

    // Why the setting exists: a named statement that outlives its transaction is gone once
    // another client's DISCARD ALL lands on its server connection.
    let (named, connection) = through.connect(tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let (other, connection) = through.connect(tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let statement = named.prepare("SELECT $1::int + 1").await.unwrap();
    for _ in 0..4 {
        other.batch_execute("DISCARD ALL").await.unwrap();
    }
    let error = named.query(&statement, &[&1i32]).await.unwrap_err();
    assert!(format!("{error:?}").contains("does not exist"), "{error:?}");
    drop(statement);
    drop(named);

    // The store's operations through two server connections, with the disturber on them.
    let pooled = bouncer(&direct, 2);
    let through: tokio_postgres::Config = url_of(pooled.port).parse().unwrap();
    let url = url_of(pooled.port);
    let (other, connection) = through.connect(tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);

    let store = Store::new(&StoreConfig {
        pgbouncer: true,
        pool_size: 6,
        readers: 3,
        // Eight tasks share six connections and PgBouncer's two servers: on a machine busy
        // with the rest of the suite a task may wait longer than the default 5 s for one,
        // which would be a timing failure, not a wrong answer.
        wait_timeout: Duration::from_secs(120),
        ..StoreConfig::new(url)
    })
    .unwrap();
    assert!(crm_store_pg::statements::unnamed_statements());
    // The disturber: DISCARD ALL whenever it gets a server connection.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let disturber = {
        let stop = std::sync::Arc::clone(&stop);
        tokio::spawn(async move {
            let mut sent = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                other.batch_execute("DISCARD ALL").await.unwrap();
                sent += 1;
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            sent
        })
    };
    let bill = new_bill(&s, "estimate", &[]).await;
    let mut tasks = tokio::task::JoinSet::new();
    for task in 0..8 {
        let store = store.clone();
        let bill = bill.clone();
        tasks.spawn(async move {
            for round in 0..6 {
                let title = format!("Task {task} round {round}");
                let note = store
                    .create_note(ctx(), &new_note(&[("note_title", title.as_str())]))
                    .await
                    .unwrap();
                assert_eq!(store.note(ctx(), note.id).await.unwrap().title, title);
                let update = NoteUpdate::parse(&raw(&[
                    ("note_title", "Changed"),
                    ("note_description", "Again"),
                ]))
                .unwrap();
                store.update_note(ctx(), note.id, &update).await.unwrap();
                let listed = store
                    .list_notes(
                        ctx(),
                        &NoteListQuery::parse(&raw(&[("limit", "5")])).unwrap(),
                    )
                    .await
                    .unwrap();
                assert!(!listed.items.is_empty());
                let estimate = store
                    .bills::<EstimateKind>()
                    .create(ctx(), &NewEstimate::parse(&bill).unwrap())
                    .await
                    .unwrap();
                store
                    .bills::<EstimateKind>()
                    .get(ctx(), estimate.id)
                    .await
                    .unwrap();
                store
                    .bills::<EstimateKind>()
                    .list(ctx(), &EstimateListQuery::parse(&raw(&[])).unwrap())
                    .await
                    .unwrap();
                store.delete_note(ctx(), note.id).await.unwrap();
                store.list_api_keys().await.unwrap();
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
    // The outbox worker's own connection (claims outside a transaction) too.
    let mut outbox = crm_store_pg::outbox::Outbox::new(&StoreConfig {
        pgbouncer: true,
        ..StoreConfig::new(url_of(pooled.port))
    })
    .unwrap();
    for _ in 0..5 {
        outbox
            .claim(chrono::Utc::now(), 10, Duration::from_secs(60))
            .await
            .unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let discards = disturber.await.unwrap();
    assert!(discards > 0);
    store.ping().await.unwrap();
}
