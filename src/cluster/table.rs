//! Server-side printing, the request and the answer: the `meta.k8s.io/v1` Table request
//! and the Table it returns.
//!
//! kubectl asks for a Table (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`) so the
//! server supplies the columns, which is how CRD `additionalPrinterColumns` show with no
//! per-type code (kubectl `pkg/cmd/get`, KEP-2316 server-side printing). The rows are
//! printed by the output layer (`output::server_table`).

use serde::Deserialize;
use serde_json::Value;

/// The Accept header kubectl sends for tables, with a plain JSON fallback.
pub const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/// Turns a GET or list request into a Table request as kubectl sends it: the Table
/// `Accept` header ([`TABLE_ACCEPT`]) and `includeObject=` (`None`, `Metadata` or `Object`:
/// what each row carries besides its cells).
///
/// # Errors
/// A 400-like [`super::ApiError::Server`] when the URI with the parameter is not a valid URI
/// (the request is then never sent).
pub fn as_table_request(
    mut req: http::Request<Vec<u8>>,
    include_object: &str,
) -> Result<http::Request<Vec<u8>>, super::ApiError> {
    let uri = req.uri().to_string();
    let sep = if uri.contains('?') { '&' } else { '?' };
    *req.uri_mut() = format!("{uri}{sep}includeObject={include_object}")
        .parse()
        .map_err(|_| super::ApiError::Server {
            code: 400,
            reason: "BadRequest".into(),
            message: format!("cannot build the request URI for {uri}"),
        })?;
    req.headers_mut().insert(
        http::header::ACCEPT,
        http::HeaderValue::from_static(TABLE_ACCEPT),
    );
    Ok(req)
}

/// A `meta.k8s.io/v1` Table (the fields we use).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Column definitions, in display order.
    #[serde(default)]
    pub column_definitions: Vec<Column>,
    /// Rows; `cells` line up with `column_definitions`.
    #[serde(default)]
    pub rows: Vec<Row>,
    /// List metadata (`continue` token for paging).
    #[serde(default)]
    pub metadata: TableMeta,
}

/// List metadata of a Table.
#[derive(Debug, Clone, Deserialize, Default)]
pub struct TableMeta {
    /// Token for the next page, empty on the last.
    #[serde(default, rename = "continue")]
    pub continue_token: Option<String>,
}

/// One column definition.
#[derive(Debug, Clone, Deserialize)]
pub struct Column {
    /// Header text.
    pub name: String,
    /// OpenAPI type: `string`, `integer`, `number`, `boolean`, `date`.
    #[serde(rename = "type", default)]
    pub kind: String,
    /// 0 = always shown; > 0 only in wide output.
    #[serde(default)]
    pub priority: i32,
    /// OpenAPI format; `name` marks the column `--show-kind` prefixes.
    #[serde(default)]
    pub format: String,
}

/// One row.
#[derive(Debug, Clone, Deserialize)]
pub struct Row {
    /// Cell values.
    #[serde(default)]
    pub cells: Vec<Value>,
    /// The object's metadata (`includeObject=Metadata`): a PartialObjectMetadata.
    #[serde(default)]
    pub object: Value,
}

impl Row {
    /// Drops from the row's object all that printing the row does not read — everything
    /// but `metadata.namespace` (the `-A` column) and `metadata.labels` (`-L`,
    /// `--show-labels`) — so a long list keeps its cells and little else (a
    /// PartialObjectMetadata carries managedFields and annotations, several times the size
    /// of the cells). Not for rows that `--sort-by` still has to read.
    pub fn keep_printed_only(&mut self) {
        let meta = self.object.get_mut("metadata").map(Value::take);
        let mut kept = serde_json::Map::new();
        if let Some(Value::Object(mut m)) = meta {
            for k in ["namespace", "labels"] {
                if let Some(v) = m.remove(k) {
                    kept.insert(k.to_string(), v);
                }
            }
        }
        self.object = serde_json::json!({ "metadata": kept });
    }
}
