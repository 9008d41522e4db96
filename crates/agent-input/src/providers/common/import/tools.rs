//! The `tools` option read from a provider's tools: function tools as tool specs with their own
//! fields, and the provider's own tools carried as they are (provider tools).

use serde_json::{Map, Value, json};

use super::builder::Import;
use crate::path::Path;

impl Import {
    /// The `tools` option from a provider's list of tools at `at`: each tool object given to `read`,
    /// which names the spec it declares, takes it as a tool of the provider's own, or leaves it
    /// out with `None`.
    pub(crate) fn tool_specs<'v>(
        &mut self,
        tools: &'v [Value],
        at: &Path,
        mut read: impl FnMut(&mut Self, &'v Map<String, Value>, &Path) -> Option<ToolRead<'v>>,
    ) {
        let mut specs = Vec::new();
        for (i, tool) in tools.iter().enumerate() {
            let at = at.index(i);
            let Some(object) = self.object(tool, &at, "a tool") else { continue };
            let entry = match read(self, object, &at) {
                None => continue,
                Some(ToolRead::Spec(found)) => {
                    self.option_item("tools", specs.len(), &found.at);
                    self.spec(found)
                }
                Some(ToolRead::Provider) => {
                    self.option_item("tools", specs.len(), &at);
                    self.provider_tool(tool.clone())
                }
            };
            specs.push(entry);
        }
        self.option("tools", Value::Array(specs), at);
    }

    /// A tool spec as the options take it: the name, the description and schema when given, and
    /// the tool's own fields as this provider's.
    pub(crate) fn spec(&self, found: SpecFields<'_>) -> Value {
        let mut spec = spec(found.name, found.description, found.schema);
        if !found.fields.is_empty() {
            let mut fields = Map::new();
            fields.insert("provider".into(), Value::String(self.provider.as_str().into()));
            fields.insert("fields".into(), Value::Object(found.fields));
            spec["provider_fields"] = Value::Object(fields);
        }
        spec
    }

    /// A tool of this provider's own, kept as it is: an entry of the `tools` option.
    pub(crate) fn provider_tool(&self, tool: Value) -> Value {
        let mut entry = Map::new();
        entry.insert("type".into(), Value::String("provider_tool".into()));
        entry.insert("provider".into(), Value::String(self.provider.as_str().into()));
        entry.insert("tool".into(), tool);
        Value::Object(entry)
    }
}

/// A tool spec read from a provider's tool: its name, description and schema, where it is, and
/// the tool's fields the spec has no place for, as the provider wrote them.
pub(crate) struct SpecFields<'v> {
    pub(crate) name: &'v str,
    pub(crate) description: Option<&'v Value>,
    pub(crate) schema: Option<&'v Value>,
    pub(crate) at: Path,
    pub(crate) fields: Map<String, Value>,
}

/// What a provider's tool object is for the `tools` option.
pub(crate) enum ToolRead<'v> {
    /// A function tool.
    Spec(SpecFields<'v>),
    /// A tool of the provider's own (a hosted or server tool), carried exactly as it is.
    Provider,
}

/// The keys of `object` other than `known`, as they are: a tool's own fields.
pub(crate) fn own_fields(object: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    object.iter().filter(|(key, _)| !known.contains(&key.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// A tool spec as the options take it: the name, and the description and schema when given.
fn spec(name: &str, description: Option<&Value>, schema: Option<&Value>) -> Value {
    let mut spec = json!({"name": name});
    if let Some(description) = description.filter(|d| !d.is_null()) {
        spec["description"] = description.clone();
    }
    if let Some(schema) = schema.filter(|s| !s.is_null()) {
        spec["input_schema"] = schema.clone();
    }
    spec
}
