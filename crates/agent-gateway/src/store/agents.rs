//! Registered agents: written whole, read back with their model, credentials and schema.

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::connection::Store;
use super::records::{Agent, Credential, ModelSpec, StoreError, now_ms};

impl Store {
    /// Inserts or replaces an agent.
    ///
    /// # Errors
    /// Storage failures.
    pub fn put_agent(&self, agent: &Agent) -> Result<(), StoreError> {
        let credential = serde_json::to_string(&agent.model.credential.0).map_err(|e| StoreError(e.to_string()))?;
        self.lock().execute(
            "INSERT OR REPLACE INTO agents (id, name, type, description, model_id, model_provider, credential,
                model_parameters, parameters, created_ms, updated_ms, parameters_schema)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                agent.id,
                agent.name,
                agent.kind,
                agent.description,
                agent.model.model_id,
                agent.model.model_provider,
                credential,
                Value::Object(agent.model.model_parameters.clone()).to_string(),
                Value::Object(agent.parameters.clone()).to_string(),
                agent.created_ms,
                now_ms(),
                agent.parameters_schema.as_ref().map(Value::to_string),
            ],
        )?;
        Ok(())
    }

    /// The agent with this id.
    ///
    /// # Errors
    /// Storage failures.
    pub fn agent(&self, id: &str) -> Result<Option<Agent>, StoreError> {
        let connection = self.lock();
        let row = connection
            .query_row(
                "SELECT id, name, type, description, model_id, model_provider, credential, model_parameters,
                    parameters, created_ms, parameters_schema FROM agents WHERE id = ?1",
                [id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, String>(4)?,
                        row.get::<_, String>(5)?,
                        row.get::<_, String>(6)?,
                        row.get::<_, String>(7)?,
                        row.get::<_, String>(8)?,
                        row.get::<_, i64>(9)?,
                        row.get::<_, Option<String>>(10)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            id,
            name,
            kind,
            description,
            model_id,
            model_provider,
            credential,
            model_parameters,
            parameters,
            created_ms,
            parameters_schema,
        )) = row
        else {
            return Ok(None);
        };
        let corrupt =
            |what: &str, e: serde_json::Error| StoreError(format!("agent {id}: stored {what} is not valid: {e}"));
        Ok(Some(Agent {
            name,
            kind,
            description,
            model: ModelSpec {
                model_id,
                model_provider,
                credential: Credential(serde_json::from_str(&credential).map_err(|e| corrupt("credential", e))?),
                model_parameters: serde_json::from_str(&model_parameters)
                    .map_err(|e| corrupt("model_parameters", e))?,
            },
            parameters: serde_json::from_str(&parameters).map_err(|e| corrupt("parameters", e))?,
            parameters_schema: parameters_schema
                .map(|text| serde_json::from_str(&text).map_err(|e| corrupt("parameters_schema", e)))
                .transpose()?,
            created_ms,
            id,
        }))
    }

    /// Deletes an agent; whether it existed. Its memories stay readable.
    ///
    /// # Errors
    /// Storage failures.
    pub fn delete_agent(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.lock().execute("DELETE FROM agents WHERE id = ?1", [id])? > 0)
    }
}
