//! AWS Signature Version 4, for Bedrock Runtime (service `bedrock`).
//!
//! Reference: <https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html>.
//! For every service but S3 the canonical URI is the request path URI-encoded *again*, segment
//! by segment: a model id `a:b` travels as `/model/a%3Ab/converse` and is signed as
//! `/model/a%253Ab/converse`.

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
    /// The canonical query string (`""` for none).
    pub query: &'a str,
    /// Headers to sign, besides `x-amz-date` and `x-amz-security-token`, which are added.
    /// `host` must be among them.
    pub headers: &'a [(&'a str, &'a str)],
    /// The body.
    pub payload: &'a [u8],
}

/// The headers to add to the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// `x-amz-date`.
    pub amz_date: String,
    /// `authorization`.
    pub authorization: String,
}

/// Signs `request` for `service` in `region` at `time`.
pub fn sign(
    request: &Request<'_>,
    credentials: &Credentials,
    region: &str,
    service: &str,
    time: SystemTime,
) -> Signature {
    let amz_date = amz_date(time);
    let date = &amz_date[..8];
    let mut headers: Vec<(String, String)> =
        request.headers.iter().map(|(name, value)| (name.to_ascii_lowercase(), collapse(value))).collect();
    headers.push(("x-amz-date".into(), amz_date.clone()));
    if let Some(token) = &credentials.session_token {
        headers.push(("x-amz-security-token".into(), token.clone()));
    }
    headers.sort();
    let signed_headers = headers.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(";");
    let mut canonical = format!("{}\n{}\n{}\n", request.method, canonical_uri(request.path), request.query);
    for (name, value) in &headers {
        let _ = writeln!(canonical, "{name}:{value}");
    }
    let _ = write!(canonical, "\n{signed_headers}\n{}", hex(&Sha256::digest(request.payload)));
    let scope = format!("{date}/{region}/{service}/aws4_request");
    let string_to_sign =
        format!("AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{}", hex(&Sha256::digest(canonical.as_bytes())));
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
    }
}

/// Percent-encodes everything but RFC 3986's unreserved characters, as AWS clients encode a
/// path parameter (the Bedrock model id).
pub fn uri_encode(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for byte in raw.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The canonical URI of a non-S3 request: each segment of the wire path encoded again.
pub fn canonical_uri(path: &str) -> String {
    if path.is_empty() {
        return "/".into();
    }
    path.split('/').map(uri_encode).collect::<Vec<_>>().join("/")
}

fn collapse(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
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
    fn model_ids_are_encoded_once_on_the_wire_and_twice_when_signed() {
        let wire = format!("/model/{}/converse", uri_encode("anthropic.claude-3-haiku-20240307-v1:0"));
        assert_eq!(wire, "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse");
        assert_eq!(canonical_uri(&wire), "/model/anthropic.claude-3-haiku-20240307-v1%253A0/converse");
        assert_eq!(uri_encode("a/b c~"), "a%2Fb%20c~");
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
