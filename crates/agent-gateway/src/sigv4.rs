//! AWS Signature Version 4, for Bedrock Runtime (service `bedrock`).
//!
//! Reference: <https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html>.
//! For every service but S3 the canonical URI is the request path normalized and URI-encoded
//! *again*, segment by segment: a model id `a:b` travels as `/model/a%3Ab/converse` and is signed
//! as `/model/a%253Ab/converse`.
//!
//! Checked against AWS's own signing test suite (`tests/sigv4_vectors.rs`): every vector that
//! signs in headers for a non-S3 service. Written here rather than taken from the `aws-sigv4`
//! crate, which would bring 30 more crates for these 190 lines of code, and a newer Rust (its
//! releases since 1.5 need 1.94.1; the workspace builds on 1.88).

use std::fmt::Write as _;
use std::time::SystemTime;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// AWS credentials. `Debug` hides the secrets.
#[derive(Clone)]
pub struct Credentials {
    /// Access key id.
    pub access_key: String,
    /// Secret access key.
    pub secret_key: String,
    /// Session token of temporary credentials, sent as `x-amz-security-token`.
    pub session_token: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials").field("access_key", &self.access_key).finish_non_exhaustive()
    }
}

/// What is signed: the request as it will be sent.
#[derive(Debug)]
pub struct Request<'a> {
    /// `POST`, `GET`, …
    pub method: &'a str,
    /// The path as sent on the wire (already percent-encoded).
    pub path: &'a str,
    /// The query as sent on the wire, without `?` (`""` for none).
    pub query: &'a str,
    /// Headers to sign, besides `x-amz-date` and `x-amz-security-token`, which are added.
    /// `host` must be among them. A name may repeat; its values are signed in this order.
    pub headers: &'a [(&'a str, &'a str)],
    /// The body.
    pub payload: &'a [u8],
}

/// The headers to add to the request, and the steps that made them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// `x-amz-date`.
    pub amz_date: String,
    /// `authorization`.
    pub authorization: String,
    /// The canonical request that was signed.
    pub canonical_request: String,
    /// The string to sign: algorithm, date, scope and the canonical request's hash.
    pub string_to_sign: String,
}

/// Signs `request` for `service` in `region` at `time`, as every service but S3 expects: the
/// path normalized and encoded twice, the session token (if any) signed.
pub fn sign(
    request: &Request<'_>,
    credentials: &Credentials,
    region: &str,
    service: &str,
    time: SystemTime,
) -> Signature {
    let amz_date = amz_date(time);
    let date = &amz_date[..8];
    let mut headers: Vec<(&str, &str)> = request.headers.to_vec();
    headers.push(("x-amz-date", &amz_date));
    if let Some(token) = &credentials.session_token {
        headers.push(("x-amz-security-token", token));
    }
    let (canonical_headers, signed_headers) = canonical_headers(&headers);
    let canonical_request = format!(
        "{}\n{}\n{}\n{canonical_headers}\n{signed_headers}\n{}",
        request.method,
        canonical_uri(request.path),
        canonical_query(request.query),
        hex(&Sha256::digest(request.payload))
    );
    let scope = format!("{date}/{region}/{service}/aws4_request");
    let string_to_sign =
        format!("AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}", hex(&Sha256::digest(canonical_request.as_bytes())));
    let mut key = hmac(format!("AWS4{}", credentials.secret_key).as_bytes(), date.as_bytes());
    for part in [region, service, "aws4_request"] {
        key = hmac(&key, part.as_bytes());
    }
    let signature = hex(&hmac(&key, string_to_sign.as_bytes()));
    Signature {
        authorization: format!(
            "AWS4-HMAC-SHA256 Credential={}/{scope}, SignedHeaders={signed_headers}, Signature={signature}",
            credentials.access_key
        ),
        amz_date,
        canonical_request,
        string_to_sign,
    }
}

/// The canonical headers (one `name:value` line each) and the signed-header list: names in
/// lowercase and sorted; values trimmed, each run of whitespace (line breaks of a folded value
/// too) made one space; the values of a repeated name joined by `,` in the order sent.
fn canonical_headers(headers: &[(&str, &str)]) -> (String, String) {
    let mut grouped: Vec<(String, String)> = Vec::with_capacity(headers.len());
    for (name, value) in headers {
        let name = name.trim().to_ascii_lowercase();
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        match grouped.iter_mut().find(|(seen, _)| *seen == name) {
            Some((_, values)) => {
                values.push(',');
                values.push_str(&value);
            }
            None => grouped.push((name, value)),
        }
    }
    // Stable, and names are unique now: only the names decide the order.
    grouped.sort_by(|a, b| a.0.cmp(&b.0));
    let mut lines = String::new();
    for (name, value) in &grouped {
        let _ = writeln!(lines, "{name}:{value}");
    }
    let signed = grouped.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(";");
    (lines, signed)
}

/// Percent-encodes everything but RFC 3986's unreserved characters, as AWS clients encode a
/// path parameter (the Bedrock model id).
pub fn uri_encode(raw: &str) -> String {
    encode_bytes(raw.as_bytes())
}

fn encode_bytes(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for &byte in raw {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The canonical URI of a non-S3 request: the wire path with `.` and `..` segments resolved and
/// empty segments dropped (a trailing `/` kept), then each segment encoded again.
pub fn canonical_uri(path: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            segment => segments.push(segment),
        }
    }
    let mut uri = String::with_capacity(path.len() + 8);
    for segment in &segments {
        uri.push('/');
        uri.push_str(&uri_encode(segment));
    }
    let directory = ["/", "/.", "/.."].iter().any(|end| path.ends_with(end));
    if uri.is_empty() || directory {
        uri.push('/');
    }
    uri
}

/// The canonical query: each `name=value` pair decoded and encoded again, a missing `=value`
/// read as empty, the pairs sorted by name, then value.
pub fn canonical_query(query: &str) -> String {
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (encode_bytes(&percent_decode(name)), encode_bytes(&percent_decode(value)))
        })
        .collect();
    pairs.sort();
    pairs.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join("&")
}

/// `%XX` escapes as bytes; a `%` not followed by two hex digits stays itself.
fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .filter(|hex| hex.iter().all(u8::is_ascii_hexdigit))
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        if let Some(byte) = escaped {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!());
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// `YYYYMMDD'T'HHMMSS'Z'` in UTC.
pub fn amz_date(time: SystemTime) -> String {
    let secs = time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn matches_the_aws_documentation_example() {
        // IAM ListUsers, from AWS's "Signature Version 4 signing process" examples.
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(1_440_938_160); // 2015-08-30T12:36:00Z
        let signature = sign(
            &Request {
                method: "GET",
                path: "/",
                query: "Action=ListUsers&Version=2010-05-08",
                headers: &[
                    ("content-type", "application/x-www-form-urlencoded; charset=utf-8"),
                    ("host", "iam.amazonaws.com"),
                ],
                payload: b"",
            },
            &Credentials {
                access_key: "AKIDEXAMPLE".into(),
                secret_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
                session_token: None,
            },
            "us-east-1",
            "iam",
            time,
        );
        assert_eq!(signature.amz_date, "20150830T123600Z");
        assert_eq!(
            signature.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, \
             SignedHeaders=content-type;host;x-amz-date, \
             Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
        );
    }

    #[test]
    fn a_bedrock_request_signs_as_the_aws_sdk_signs_it() {
        // Expected: the `aws-sigv4` crate 1.6.4 (default settings) on the same request.
        let body = r#"{"messages":[{"role":"user","content":[{"text":"hi  there"}]}]}"#;
        let signature = sign(
            &Request {
                method: "POST",
                path: "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse",
                query: "",
                headers: &[("content-type", "application/json"), ("host", "bedrock-runtime.us-east-1.amazonaws.com")],
                payload: body.as_bytes(),
            },
            &Credentials {
                access_key: "AKIDEXAMPLE".into(),
                secret_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
                session_token: Some("FwoGZXIvYXdzEXAMPLE//token+with/slashes==".into()),
            },
            "us-east-1",
            "bedrock",
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_732_700_000),
        );
        assert_eq!(signature.amz_date, "20241127T093320Z");
        assert_eq!(
            signature.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20241127/us-east-1/bedrock/aws4_request, \
             SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, \
             Signature=910c4c043c9472f6a5b18ea0a21b740cb4d666a4bec36d1b68ebed1eecd69472"
        );
    }

    #[test]
    fn model_ids_are_encoded_once_on_the_wire_and_twice_when_signed() {
        let wire = format!("/model/{}/converse", uri_encode("anthropic.claude-3-haiku-20240307-v1:0"));
        assert_eq!(wire, "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse");
        assert_eq!(canonical_uri(&wire), "/model/anthropic.claude-3-haiku-20240307-v1%253A0/converse");
        assert_eq!(uri_encode("a/b c~"), "a%2Fb%20c~");
    }

    #[test]
    fn query_pairs_are_decoded_encoded_again_and_sorted() {
        assert_eq!(canonical_query("b=%2&a=%+1&c&&a=%41~"), "a=%25%2B1&a=A~&b=%252&c=");
        assert_eq!(canonical_query(""), "");
    }

    #[test]
    fn dates() {
        assert_eq!(amz_date(SystemTime::UNIX_EPOCH), "19700101T000000Z");
        assert_eq!(amz_date(SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400)), "20000229T000000Z");
        assert!(
            !format!("{:?}", Credentials { access_key: "A".into(), secret_key: "S3".into(), session_token: None })
                .contains("S3")
        );
    }
}
