//! The configuration's sources, precedence and refusals.
use super::file::File;
use super::*;

#[test]
fn flags_win_over_the_file_and_the_file_over_defaults() {
    let dir = std::env::temp_dir().join(format!("gw-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gateway.toml");
    std::fs::write(
        &path,
        "listen = \"127.0.0.1:9999\"\ndb = \"file.db\"\nbearer_token = \"t\"\nprovider_timeout_secs = 5\n",
    )
    .unwrap();
    let args = Args { config: Some(path), db: Some("flag.db".into()), ..Args::default() };
    let config = Config::from_args(args).unwrap();
    assert_eq!(config.listen.to_string(), "127.0.0.1:9999");
    assert_eq!(config.db, PathBuf::from("flag.db"));
    assert_eq!(config.auth, ApiAuth::Bearer("t".into()));
    assert_eq!(config.provider_timeout, Duration::from_secs(5));
    assert_eq!(config.request_timeout, Duration::from_secs(120));
    assert_eq!(format!("{:?}", config.auth), "Bearer(***)");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn rejects_bad_auth_and_unknown_keys() {
    let args = Args { basic_auth: Some("nopassword".into()), ..Args::default() };
    assert!(Config::from_args(args).is_err());
    let args = Args { basic_auth: Some("a:b".into()), bearer_token: Some("t".into()), ..Args::default() };
    assert!(Config::from_args(args).is_err());
    assert!(toml::from_str::<File>("lisen = \"x\"").is_err());
}

#[test]
fn the_security_settings_come_from_the_file_too() {
    let dir = std::env::temp_dir().join(format!("gw-config-security-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gateway.toml");
    std::fs::write(
        &path,
        "endpoint_allow = [\"Proxy.Example.com.\", \"[::1]\"]\nallowed_hosts = [\"gw.example\"]\n\
         header_timeout_secs = 3\nidle_timeout_secs = 4\nmax_connections = 5\nmax_memory_bytes = 6\n\
         max_memory_messages = 7\n",
    )
    .unwrap();
    let config = Config::from_args(Args { config: Some(path), ..Args::default() }).unwrap();
    assert_eq!(config.endpoint_allow, ["proxy.example.com", "::1"]);
    assert_eq!(config.allowed_hosts, ["gw.example"]);
    assert_eq!((config.header_timeout, config.idle_timeout), (Duration::from_secs(3), Duration::from_secs(4)));
    assert_eq!((config.max_connections, config.max_memory_bytes, config.max_memory_messages), (5, 6, 7));
    let defaults = Config::from_args(Args::default()).unwrap();
    assert_eq!((defaults.header_timeout, defaults.max_connections), (Duration::from_secs(10), 512));
    assert!(Config::from_args(Args { max_connections: Some(0), ..Args::default() }).is_err());
    assert!(Config::from_args(Args { endpoint_allow: vec!["https://x.com".into()], ..Args::default() }).is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_upstream_comes_from_flags_the_file_and_keeps_its_secrets() {
    let dir = std::env::temp_dir().join(format!("gw-config-upstream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gateway.toml");
    std::fs::write(
        &path,
        "upstream = \"https://os.example:9200/prefix\"\nupstream_user = \"file-user\"\n\
         upstream_password = \"file-pw\"\nupstream_ca = \"ca.pem\"\n",
    )
    .unwrap();
    let args = Args { config: Some(path), upstream_user: Some("flag-user".into()), ..Args::default() };
    let upstream = Config::from_args(args).unwrap().upstream.unwrap();
    assert_eq!(upstream.urls.iter().map(reqwest::Url::as_str).collect::<Vec<_>>(), ["https://os.example:9200/prefix/"]);
    assert_eq!(upstream.auth, UpstreamAuth::Basic { user: "flag-user".into(), password: "file-pw".into() });
    assert_eq!(upstream.ca, Some(PathBuf::from("ca.pem")));
    assert_eq!(format!("{:?}", upstream.auth), "Basic(flag-user:***)");
    std::fs::remove_dir_all(dir).unwrap();

    let parse = |url: &str, user: Option<&str>, password: Option<&str>, token: Option<&str>| {
        Upstream::parse(&[url], user.map(Into::into), password.map(Into::into), token.map(Into::into), None)
    };
    assert_eq!(parse("https://os:9200", None, None, Some("t")).unwrap().auth, UpstreamAuth::Bearer("t".into()));
    assert!(parse("http://127.0.0.1:9200", Some("u"), Some("p"), None).is_ok(), "loopback may be plain http");
    let refused = [
        parse("http://os.example:9200", Some("u"), Some("p"), None), // credentials in clear text
        parse("https://u:p@os.example:9200", None, None, None),
        parse("https://os.example:9200/?x=1", None, None, None),
        parse("ftp://os.example", None, None, None),
        parse("os.example:9200", None, None, None),
        parse("https://os.example", Some("u"), None, None),
        parse("https://os.example", Some("u"), Some("p"), Some("t")),
    ];
    for (i, result) in refused.iter().enumerate() {
        assert!(result.is_err(), "case {i}: {result:?}");
    }
    assert!(Config::from_args(Args { upstream_token: Some("t".into()), ..Args::default() }).is_err());
}

#[test]
fn memory_ttl_takes_units_and_never() {
    assert_eq!(ttl("90").unwrap(), Some(Duration::from_secs(90)));
    assert_eq!(ttl("90m").unwrap(), Some(Duration::from_secs(5400)));
    assert_eq!(ttl("12h").unwrap(), Some(Duration::from_secs(43_200)));
    assert_eq!(ttl("30d").unwrap(), Some(Duration::from_secs(2_592_000)));
    assert_eq!(ttl("Never").unwrap(), None);
    for bad in ["0", "", "5w", "-1", "1.5h", "d"] {
        assert!(ttl(bad).is_err(), "{bad}");
    }
    let defaults = Config::from_args(Args::default()).unwrap();
    assert_eq!((defaults.memory_ttl, defaults.max_db_bytes), (Some(Duration::from_secs(2_592_000)), 1 << 30));
    let file = toml::from_str::<File>("memory_ttl = \"2h\"\nmax_db_bytes = 5").unwrap();
    assert_eq!((file.memory_ttl.as_deref(), file.max_db_bytes), (Some("2h"), Some(5)));
    assert!(Config::from_args(Args { max_db_bytes: Some(0), ..Args::default() }).is_err());
}

#[test]
fn refuses_an_open_api_off_loopback_and_a_database_inside_the_site() {
    let open = Args { listen: Some("0.0.0.0:0".parse().unwrap()), ..Args::default() };
    assert!(Config::from_args(open).unwrap_err().contains("without authentication"));
    let guarded =
        Args { listen: Some("0.0.0.0:0".parse().unwrap()), bearer_token: Some("t".into()), ..Args::default() };
    assert!(Config::from_args(guarded).is_ok());
    let dir = std::env::temp_dir().join(format!("gw-config-site-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("www/sub")).unwrap();
    let inside = Args { site: Some(dir.join("www")), db: Some(dir.join("www/sub/../x.db")), ..Args::default() };
    assert!(Config::from_args(inside).unwrap_err().contains("inside --site"));
    let beside = Args { site: Some(dir.join("www")), db: Some(dir.join("x.db")), ..Args::default() };
    assert!(Config::from_args(beside).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn several_nodes_come_from_repeated_flags_and_from_a_list_in_the_file() {
    let dir = std::env::temp_dir().join(format!("gw-config-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gateway.toml");
    std::fs::write(&path, "upstream = [\"http://127.0.0.1:9250\", \"http://127.0.0.1:9251/\"]\n").unwrap();
    let urls = |args: Args| -> Vec<String> {
        let upstream = Config::from_args(args).unwrap().upstream.unwrap();
        upstream.urls.iter().map(ToString::to_string).collect()
    };
    let from_file = urls(Args { config: Some(path.clone()), ..Args::default() });
    assert_eq!(from_file, ["http://127.0.0.1:9250/", "http://127.0.0.1:9251/"]);
    // The flags' list replaces the file's whole.
    let flags =
        Args { config: Some(path), upstream: vec!["http://a:1".into(), "http://b:2".into()], ..Args::default() };
    assert_eq!(urls(flags), ["http://a:1/", "http://b:2/"]);
    // clap: repeated, or comma-separated as the environment variable gives them.
    for argv in [
        &["agent-gateway", "--upstream", "http://a:1", "--upstream", "http://b:2"][..],
        &["agent-gateway", "--upstream", "http://a:1,http://b:2"][..],
    ] {
        assert_eq!(urls(Args::try_parse_from(argv).unwrap()), ["http://a:1/", "http://b:2/"]);
    }
    let twice = Args { upstream: vec!["http://a:1".into(), "http://a:1/".into()], ..Args::default() };
    assert!(Config::from_args(twice).unwrap_err().contains("twice"));
    let one_bad = Args { upstream: vec!["http://a:1".into(), "b:2".into()], ..Args::default() };
    assert!(Config::from_args(one_bad).unwrap_err().contains("b:2"));
    std::fs::remove_dir_all(dir).unwrap();
}
