//! `cg-referee arena` on a small run: the win-rate table, forfeits by
//! reason, ratings, the results JSON and the kept records.

use assert_cmd::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_cg-referee");
const FAULTY: &str = env!("CARGO_BIN_EXE_cg-fixture-faulty");
const GREEDY: &str = env!("CARGO_BIN_EXE_cg-fixture-greedy");
const BOT: &str = env!("CARGO_BIN_EXE_cg-bot");

#[test]
fn a_match_that_cannot_be_recorded_is_listed_with_why() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    // A folder where match 1's record should go: that write fails.
    std::fs::create_dir_all(records.join("00001-a-vs-b-2x2.json")).unwrap();
    let results = dir.path().join("results.json");
    let out = Command::new(REFEREE)
        .args([
            "arena",
            "--bot",
            &format!("a={GREEDY}"),
            "--bot",
            &format!("b={GREEDY}"),
            "--matches",
            "2",
            "--sizes",
            "2",
            "--results",
            results.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("match 1 (a vs b, 2x2) not played: cannot write"),
        "{table}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["failed"][0]["index"], 1, "{json}");
    assert_eq!(json["matches"].as_array().unwrap().len(), 1, "{json}");
}

#[test]
fn small_round_robin() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.json");
    let records = dir.path().join("records");
    let out = Command::new(REFEREE)
        .current_dir(dir.path())
        .args([
            "arena",
            "--bot",
            &format!("bot={BOT}"),
            "--bot",
            &format!("greedy={GREEDY}"),
            "--bot",
            &format!("garbage=env CG_FAULT=garbage {FAULTY}"),
            "--matches",
            "3",
            "--sizes",
            "2-3",
            "--jobs",
            "2",
            "--results",
            results.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let first = table.lines().next().unwrap();
    for name in ["bot", "greedy", "garbage", "all"] {
        assert!(first.contains(name), "{table}");
    }
    // Every match of the faulty bot is a syntax forfeit: 4 per opponent.
    assert!(table.contains("garbage    syntax 8"), "{table}");
    assert!(
        table.contains("rating (Elo scale, maximum likelihood"),
        "{table}"
    );
    assert!(table.contains("win rate (95% Wilson interval)"), "{table}");
    assert!(table.contains("by board size (W-D-L)"), "{table}");
    assert!(table.contains("answer times (ms)"), "{table}");
    // Without a terminal: a line per finished match, counted.
    let progress = String::from_utf8_lossy(&out.stderr);
    assert_eq!(progress.matches("arena: ").count(), 12, "{progress}");
    assert!(progress.contains("arena: 12/12 match "), "{progress}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let matches = json["matches"].as_array().unwrap();
    assert_eq!(
        matches.len(),
        12,
        "3 pairs x 4 matches (3 rounded up to even)"
    );
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    assert_eq!(standings[2]["name"], "garbage", "lowest rating last");
    assert_eq!(standings[2]["wins"], 0);
    assert_eq!(standings[2]["forfeits"]["syntax"], 8);
    assert!(standings[0]["rating_ci95"].as_f64().unwrap() > 0.0);
    assert!(standings[0]["times"]["answers"].as_u64().unwrap() > 0);
    assert_eq!(json["failed"].as_array().unwrap().len(), 0);
    // Records carry answer times.
    assert!(
        matches[0]["record"]["moves"][0]["us"].is_u64(),
        "{}",
        matches[0]
    );
    // Seats swap within each pair of matches, on the same size.
    assert_eq!(matches[0]["a"], matches[1]["b"]);
    assert_eq!(matches[0]["size"], matches[1]["size"]);
    for m in matches {
        let file = m["record_file"].as_str().unwrap();
        let replayed = Command::new(REFEREE)
            .args(["replay", file])
            .output()
            .unwrap();
        assert_eq!(replayed.status.code(), Some(0), "{file}");
    }
}

#[test]
fn arena_usage_errors_exit_2() {
    for args in [
        &["arena", "--bot", "a=x"][..],
        &["arena", "--bot", "a=x", "--bot", "a=y"],
        &["arena", "--bot", "a=x", "--bot", "noequals"],
        &["arena", "--bot", "a=x", "--bot", "b=y", "--sizes", "1-4"],
    ] {
        let out = Command::new(REFEREE).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// A bot that probes what the sandbox must refuse (a private file, the
/// caller's home, a loopback TCP and UDP listener, a socket file, an
/// abstract socket), exits 99 if any probe got through, and otherwise
/// plays as the greedy fixture (copied beside it: a bot reads its own
/// folder, not `target/`).
#[test]
fn a_probing_bot_is_refused_everything_and_plays_on() {
    use std::io::Read as _;
    use std::os::linux::net::SocketAddrExt as _;
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("secret"), b"token\n").unwrap();
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let socket_file = home.path().join("daemon.sock");
    let unix = std::os::unix::net::UnixListener::bind(&socket_file).unwrap();
    unix.set_nonblocking(true).unwrap();
    let name = format!("arena-bait-{}", std::process::id());
    let abstract_listener = std::os::unix::net::UnixListener::bind_addr(
        &std::os::unix::net::SocketAddr::from_abstract_name(&name).unwrap(),
    )
    .unwrap();
    abstract_listener.set_nonblocking(true).unwrap();
    let bot = dir.path().join("probe.sh");
    std::fs::copy(GREEDY, dir.path().join("greedy")).unwrap();
    let py = |family: &str, addr: &str| {
        format!(
            "python3 -c 'import socket,sys; s=socket.socket(socket.{family}); \
             s.connect(sys.argv[1]); s.send(b\"leak\")' {addr} 2>/dev/null && exit 99\n"
        )
    };
    std::fs::write(
        &bot,
        format!(
            "#!/bin/bash\ncat /etc/shadow >/dev/null 2>&1 && exit 99\n\
             cat {home}/secret >/dev/null 2>&1 && exit 99\n\
             (echo leak > /dev/tcp/{tcp}) 2>/dev/null && exit 99\n\
             (echo leak > /dev/udp/{udp}) 2>/dev/null && exit 99\n{unix}{abs}\
             exec \"$(dirname \"$0\")/greedy\"\n",
            home = home.path().display(),
            tcp = tcp.local_addr().unwrap().to_string().replace(':', "/"),
            udp = udp.local_addr().unwrap().to_string().replace(':', "/"),
            unix = py("AF_UNIX", &socket_file.display().to_string()),
            abs = py("AF_UNIX", &format!("$'\\0{name}'")),
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let results = dir.path().join("results.json");
    // Its records go to the folder it runs in: not the bot's, whose
    // files the bot could then read only by name.
    let work = tempfile::tempdir().unwrap();
    let out = Command::new(REFEREE)
        .current_dir(work.path())
        .env("HOME", home.path())
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env_remove("CONFORMANCE_ALLOW_NETWORK")
        .env_remove("CONFORMANCE_ALLOW_READ")
        .args([
            "arena",
            "--bot",
            &format!("probe={}", bot.display()),
            "--bot",
            &format!("greedy={GREEDY}"),
            "--matches",
            "2",
            "--sizes",
            "2",
            "--results",
            results.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    for standing in json["standings"].as_array().unwrap() {
        assert_eq!(
            standing["forfeits"]
                .as_object()
                .map_or(0, serde_json::Map::len),
            0,
            "{said}\n{json}"
        );
    }
    assert!(tcp.accept().is_err(), "the TCP listener was reached");
    assert!(udp.recv_from(&mut [0u8; 16]).is_err(), "UDP was reached");
    for l in [&unix, &abstract_listener] {
        let got = l.accept().ok().map(|(mut s, _)| {
            let mut got = Vec::new();
            let _ = s.read_to_end(&mut got);
            got
        });
        assert!(got.is_none(), "a Unix listener was reached: {got:?}");
    }
}
