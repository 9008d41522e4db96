//! Document names against an independent reference: 4,050 random names (ASCII, full-width
//! forms, ligatures, accented Latin, combining marks in every order, random code points) whose
//! expected Bedrock form was computed with Python's `unicodedata` (NFKD, combining marks removed)
//! and the sanitizing rules of docs/decisions/providers.md (scripts/gen-document-names.py). The
//! library tabulates only the part of the decomposition a name can show.

use agent_input::{ConvertOptions, ProviderId, convert, validate};
use serde_json::{Value, json};

#[test]
fn names_match_python_reference() {
    let data: Value = serde_json::from_str(include_str!("data/document_names.json")).unwrap();
    let mut failures = Vec::new();
    for case in data["cases"].as_array().unwrap() {
        let given = case[0].as_str().unwrap();
        let want = case[1].as_str().map_or("document-1", |s| s);
        let request = json!({"input": [{"type": "text", "text": "Read"},
            {"type": "document", "name": given, "source": {"type": "base64", "format": "txt", "data": "aGk="}}]});
        let document = validate::document(&request);
        let (request, _) = validate::validate_request(&document, &validate::Options::default()).into_result().unwrap();
        let body =
            convert::convert_to_value(ProviderId::BedrockConverse, &request, &ConvertOptions::default()).unwrap().body;
        let got = &body["messages"][0]["content"][1]["document"]["name"];
        if got != want {
            failures.push(format!("{given:?}: got {got}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{} names differ:\n{}", failures.len(), failures.join("\n"));
}
