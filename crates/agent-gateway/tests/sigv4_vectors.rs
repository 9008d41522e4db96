//! The `SigV4` signer against AWS's signing test suite (`tests/aws-signing-test-suite`, see its
//! NOTICE): every vector kept there is signed from its `request.txt` and `context.json`, and the
//! canonical request, string to sign, signature and `Authorization` header must equal AWS's.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use agent_gateway::sigv4::{self, Credentials, Request};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The folder of the vectors.
fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/aws-signing-test-suite/v4")
}

/// One vector's files, as AWS wrote them.
struct Vector {
    name: String,
    request: String,
    context: Option<Value>,
    canonical_request: String,
    string_to_sign: Option<String>,
    signature: Option<String>,
    signed_request: Option<String>,
}

impl Vector {
    fn load(name: &str) -> Self {
        let dir = suite().join(name);
        let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
        // The expected steps end with their last line; a final newline is the file's, not theirs.
        let step = |file: &str| read(file).map(|text| text.strip_suffix('\n').map(str::to_string).unwrap_or(text));
        Self {
            name: name.to_string(),
            request: read("request.txt").unwrap_or_else(|| panic!("{name}: no request.txt")),
            context: read("context.json").map(|text| serde_json::from_str(&text).expect("context.json is JSON")),
            canonical_request: step("header-canonical-request.txt")
                .unwrap_or_else(|| panic!("{name}: no header-canonical-request.txt")),
            string_to_sign: step("header-string-to-sign.txt"),
            signature: step("header-signature.txt"),
            signed_request: read("header-signed-request.txt"),
        }
    }
}

/// What a vector's context says (the two vectors without a `context.json` sign as the `aws-sigv4`
/// crate's tests sign them: its test credentials, at the date in their canonical request).
struct Context {
    credentials: Credentials,
    region: String,
    service: String,
    time: SystemTime,
    /// Send `x-amz-content-sha256` (signed).
    sign_body: bool,
    /// Send the session token unsigned, after signing (the suite's `post-sts-header-after`).
    omit_session_token: bool,
}

impl Context {
    fn of(vector: &Vector) -> Self {
        let Some(context) = &vector.context else {
            let (region, service) =
                if vector.name == "double-url-encode" { ("us-east-2", "lambda") } else { ("us-east-1", "service") };
            return Self {
                credentials: Credentials {
                    access_key: "AKIDEXAMPLE".into(),
                    secret_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
                    session_token: None,
                },
                region: region.into(),
                service: service.into(),
                time: rfc3339("2021-05-11T15:40:45Z"),
                sign_body: false,
                omit_session_token: false,
            };
        };
        let text = |key: &str| context[key].as_str().unwrap_or_else(|| panic!("{}: no {key}", vector.name)).to_string();
        let credentials = &context["credentials"];
        Self {
            credentials: Credentials {
                access_key: credentials["access_key_id"].as_str().expect("access_key_id").into(),
                secret_key: credentials["secret_access_key"].as_str().expect("secret_access_key").into(),
                session_token: credentials["token"].as_str().map(str::to_string),
            },
            region: text("region"),
            service: text("service"),
            time: rfc3339(&text("timestamp")),
            sign_body: context["sign_body"].as_bool() == Some(true),
            omit_session_token: context["omit_session_token"].as_bool() == Some(true),
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` as a time.
fn rfc3339(text: &str) -> SystemTime {
    let number = |range: std::ops::Range<usize>| text[range].parse::<i64>().expect("a date");
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let seconds = days * 86_400 + number(11..13) * 3600 + number(14..16) * 60 + number(17..19);
    SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(seconds).expect("after 1970"))
}

/// A request as `request.txt` writes it: the request line, headers (a line that starts with
/// whitespace continues the header before it), a blank line and the body.
struct Parsed {
    method: String,
    path: String,
    query: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

fn parse(request: &str) -> Parsed {
    let (head, body) = request.split_once("\n\n").unwrap_or((request.trim_end_matches('\n'), ""));
    let mut lines = head.lines();
    let line = lines.next().expect("a request line");
    let method = line.split(' ').next().expect("a method").to_string();
    // The target runs to the last space: an unencoded space may be in it (get-space-unnormalized).
    let target = line[method.len() + 1..].rsplit_once(' ').map_or(&line[method.len() + 1..], |(target, _)| target);
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in lines {
        if line.starts_with([' ', '\t']) {
            let (_, value) = headers.last_mut().expect("a header before a continuation line");
            value.push('\n');
            value.push_str(line);
        } else {
            let (name, value) = line.split_once(':').expect("name:value");
            headers.push((name.to_string(), value.to_string()));
        }
    }
    Parsed { method, path: path.to_string(), query: query.to_string(), headers, body: body.as_bytes().to_vec() }
}

/// Signs the vector and compares every step that AWS gives; `Err` says which differs.
fn check(vector: &Vector) -> Result<(), String> {
    let context = Context::of(vector);
    let parsed = parse(&vector.request);
    // The signer adds the date itself (double-encode-path's request carries an older one).
    let mut headers: Vec<(&str, &str)> = parsed
        .headers
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("x-amz-date"))
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    let content_sha256 = sigv4::hex(&Sha256::digest(&parsed.body));
    if context.sign_body {
        headers.push(("x-amz-content-sha256", &content_sha256));
    }
    let mut credentials = context.credentials.clone();
    if context.omit_session_token {
        credentials.session_token = None;
    }
    let signature = sigv4::sign(
        &Request {
            method: &parsed.method,
            path: &parsed.path,
            query: &parsed.query,
            headers: &headers,
            payload: &parsed.body,
        },
        &credentials,
        &context.region,
        &context.service,
        context.time,
    );
    let differs = |what: &str, ours: &str, theirs: &str| {
        format!("{}: the {what} differs\n--- ours\n{ours}\n--- AWS's\n{theirs}", vector.name)
    };
    if signature.canonical_request != vector.canonical_request {
        return Err(differs("canonical request", &signature.canonical_request, &vector.canonical_request));
    }
    if let Some(expected) = &vector.string_to_sign
        && &signature.string_to_sign != expected
    {
        return Err(differs("string to sign", &signature.string_to_sign, expected));
    }
    let ours = signature.authorization.rsplit_once("Signature=").map_or("", |(_, hex)| hex);
    if let Some(expected) = &vector.signature
        && ours != expected
    {
        return Err(differs("signature", ours, expected));
    }
    if let Some(signed) = &vector.signed_request {
        let header = |wanted: &str| {
            parse(signed).headers.into_iter().find(|(name, _)| name.eq_ignore_ascii_case(wanted)).map(|(_, v)| v)
        };
        let authorization = header("authorization").ok_or_else(|| format!("{}: no Authorization", vector.name))?;
        if signature.authorization != authorization.trim() {
            return Err(differs("Authorization header", &signature.authorization, authorization.trim()));
        }
        // The token travels in the request whether it was signed or not.
        let token = header("x-amz-security-token");
        if token.as_deref() != context.credentials.session_token.as_deref() {
            return Err(format!("{}: the signed request's session token is not the context's", vector.name));
        }
    }
    Ok(())
}

fn names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(suite())
        .expect("the test suite folder")
        .map(|entry| entry.expect("a folder entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_kept_vector_signs_as_aws_does() {
    let names = names();
    // Every vector of the suite that signs in headers with the path normalized (see the NOTICE);
    // a vector lost from the folder fails here rather than passing unseen.
    assert_eq!(names.len(), 32, "{names:?}");
    let failures: Vec<String> = names.iter().filter_map(|name| check(&Vector::load(name)).err()).collect();
    assert!(failures.is_empty(), "{} of {} vectors differ:\n\n{}", failures.len(), names.len(), failures.join("\n\n"));
}

#[test]
fn the_vectors_cover_what_bedrock_requests_need() {
    let names = names();
    for needed in [
        // A POST with a body, and the body's hash sent as a signed header.
        "post-x-www-form-urlencoded",
        "post-x-www-form-urlencoded-parameters",
        // Header canonicalization: whitespace runs, folded values, repeated names, name case.
        "get-header-value-trim",
        "get-header-value-multiline",
        "get-header-key-duplicate",
        "get-header-value-order",
        "post-header-key-case",
        "post-header-value-case",
        // Session tokens, signed (as the gateway sends them) and added after signing.
        "post-sts-header-before",
        "post-sts-header-after",
        "get-vanilla-with-session-token",
        // A path whose escapes are encoded again, as a Bedrock model id's `:` is.
        "double-url-encode",
        "double-encode-path",
    ] {
        assert!(names.iter().any(|name| name == needed), "{needed} is missing");
    }
}

#[test]
fn one_changed_byte_of_an_expected_value_is_caught() {
    let pristine = Vector::load("post-sts-header-before");
    assert_eq!(check(&pristine), Ok(()));

    let mut signature = Vector::load("post-sts-header-before");
    let expected = signature.signature.take().expect("a signature");
    let flipped = if expected.starts_with('0') { "1" } else { "0" };
    signature.signature = Some(format!("{flipped}{}", &expected[1..]));
    signature.signed_request = None;
    assert!(check(&signature).unwrap_err().contains("the signature differs"));

    let mut canonical = Vector::load("get-header-value-multiline");
    canonical.canonical_request = canonical.canonical_request.replacen("value1 value2", "value1  value2", 1);
    assert!(check(&canonical).unwrap_err().contains("the canonical request differs"));

    let mut token = Vector::load("post-sts-header-after");
    token.context.as_mut().expect("a context")["omit_session_token"] = Value::Bool(false);
    assert!(check(&token).is_err(), "a signed token must change the signature");
}
