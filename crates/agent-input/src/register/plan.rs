//! A registration plan as data: the ml-commons version it is for, the API it uses, and its steps.

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Diagnostic;

pub use crate::version::Version;

/// Which registration API the plan uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Api {
    /// One `_register` call with the `model` block.
    Unified,
    /// Connector, model and agent, three calls.
    Legacy,
}

/// How to plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanOptions {
    /// The cluster's ml-commons version.
    pub version: Version,
    /// Force an API; by default the unified API where it is on by default, legacy before.
    pub api: Option<Api>,
}

impl PlanOptions {
    /// The default API for a version.
    pub const fn new(version: Version) -> Self {
        Self { version, api: None }
    }
}

/// An HTTP method of a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Method {
    /// `POST`.
    #[serde(rename = "POST")]
    Post,
    /// `PUT`.
    #[serde(rename = "PUT")]
    Put,
}

impl Method {
    /// The method's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Post => "POST",
            Self::Put => "PUT",
        }
    }
}

/// One HTTP call of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The method.
    pub method: Method,
    /// The path on the cluster (`/_plugins/_ml/connectors/_create`).
    pub path: &'static str,
    /// The JSON body; may hold placeholders of earlier steps' ids.
    pub body: Value,
    /// The field of this step's answer that later steps use (`connector_id`, `model_id`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<&'static str>,
}

/// The calls that register the agent, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// Which API the steps use.
    pub api: Api,
    /// The calls.
    pub steps: Vec<Step>,
    /// Problems worth knowing that do not stop the plan.
    pub warnings: Vec<Diagnostic>,
}
