//! The MCP handler: the tools, their descriptions for a model, and the preview → confirm
//! flow of every mutating tool.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, Implementation, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde_json::{Value, json};

use super::McpError;
use super::answer::{self, Kind, ToolError};
use super::confirm::Tokens;
use super::question::Retry;
use super::run::{Caller, Ran, Runner};
use super::tools::{
    ApplyInput, BadArguments, CanIInput, ChangelogListInput, ChangelogShowInput, Command,
    DeleteInput, DriftInput, GetInput, MetaInput, PatchInput, RollbackInput, ScaleInput, Target,
    UndeleteInput,
};

/// What the server is started with.
pub struct Options {
    /// Runs the tools' commands.
    pub runner: Runner,
    /// The contexts a call may name; the first is the default (empty: the kubeconfig has
    /// no current context, or the in-cluster configuration is used).
    pub contexts: Vec<String>,
    /// The default namespace (`-n`).
    pub namespace: Option<String>,
    /// Only the read tools.
    pub read_only: bool,
    /// How long a confirmation token stays good.
    pub ttl: Duration,
    /// plugin.yaml `name`, for the server's name.
    pub plugin: String,
    /// plugin.yaml `mcp.showSecretValues`: `get` shows Secret values.
    pub show_secret_values: bool,
}

/// The tools a read-only server neither lists nor runs.
const MUTATING: [&str; 8] = [
    "patch", "delete", "apply", "scale", "label", "annotate", "rollback", "undelete",
];

/// The MCP server.
#[derive(Clone)]
pub struct Server {
    pub(super) runner: Runner,
    pub(super) tokens: Arc<Mutex<Tokens>>,
    /// Confirmations waiting for a person's answer (`InputRequiredResult`), by handle.
    pub(super) questions: Arc<Mutex<Tokens>>,
    pub(super) contexts: Vec<String>,
    pub(super) namespace: Option<String>,
    plugin: String,
    show_secret_values: bool,
    tool_router: ToolRouter<Server>,
}

/// A mutating tool's command, given the previewed resourceVersion as a precondition.
pub(super) type CommandOf<'a> =
    Box<dyn Fn(Option<&str>) -> Result<Command, BadArguments> + Send + Sync + 'a>;

impl<'a> Change<'a> {
    /// The change `tool` makes with `input` (its arguments, which the token binds), with no
    /// object read first; the verb a `protect:` rule names is the tool's.
    pub(super) fn of<T: serde::Serialize>(
        tool: &'static str,
        input: &T,
        context: Option<&'a str>,
        change: &'a super::tools::Change,
        command: CommandOf<'a>,
    ) -> Change<'a> {
        Change {
            tool,
            arguments: serde_json::to_value(input).unwrap_or_default(),
            context,
            target: None,
            confirm: change.confirm.as_deref(),
            verb: tool,
            command,
        }
    }

    /// The same change, reading `target` before its preview and its confirmation.
    fn on(self, target: Target) -> Change<'a> {
        Change {
            target: Some(target),
            ..self
        }
    }
}

/// How a mutating tool previews and makes its change.
pub(super) struct Change<'a> {
    /// The tool's name.
    pub(super) tool: &'static str,
    /// The call's arguments, as given (the token binds them).
    pub(super) arguments: Value,
    /// The context asked for.
    pub(super) context: Option<&'a str>,
    /// The object read before the preview and the confirmation.
    pub(super) target: Option<Target>,
    /// The token, on a confirming call.
    pub(super) confirm: Option<&'a str>,
    /// The verb a `protect:` rule names.
    pub(super) verb: &'static str,
    /// The command, given the previewed resourceVersion as a precondition.
    pub(super) command: CommandOf<'a>,
}

pub(super) fn failed(e: ToolError) -> CallToolResult {
    CallToolResult::structured_error(e.to_json())
}

pub(super) fn invalid(e: BadArguments) -> CallToolResult {
    failed(ToolError::new(Kind::Invalid, e.0))
}

impl Server {
    /// A server with `o`.
    pub fn new(o: Options) -> Server {
        let mut tool_router = Server::tool_router();
        if o.read_only {
            for name in MUTATING {
                tool_router.remove_route(name);
            }
        }
        Server {
            runner: o.runner,
            tokens: Arc::new(Mutex::new(Tokens::new(o.ttl))),
            questions: Arc::new(Mutex::new(Tokens::new(o.ttl))),
            contexts: o.contexts,
            namespace: o.namespace,
            plugin: o.plugin,
            show_secret_values: o.show_secret_values,
            tool_router,
        }
    }

    /// Serves on stdin/stdout until the client closes the connection.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| McpError::Transport(e.to_string()))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| McpError::Transport(e.to_string()))
    }

    /// The context a call runs in: the one it names, if the server was started with it,
    /// else the first of the server's.
    pub(super) fn context<'a>(
        &'a self,
        asked: Option<&'a str>,
    ) -> Result<Option<&'a str>, ToolError> {
        match asked {
            None => Ok(self.contexts.first().map(String::as_str)),
            Some(c) if self.contexts.iter().any(|k| k == c) => Ok(Some(c)),
            Some(c) => Err(ToolError::new(
                Kind::Denied,
                format!(
                    "context {} is not one this server was started with ({}); an agent cannot switch clusters — a person restarts the server with --context or --contexts",
                    crate::base::echo::quoted(c),
                    if self.contexts.is_empty() {
                        "none".to_string()
                    } else {
                        self.contexts.join(", ")
                    }
                ),
            )),
        }
    }

    /// The caller of this request: `mcp:NAME/VERSION` from the client's own description
    /// (escaped and capped: it is the client's text), and a new session id.
    pub(super) fn caller(ctx: &RequestContext<RoleServer>) -> Caller {
        let who = ctx
            .client_info()
            .map(|i| format!("{}/{}", i.name, i.version))
            .unwrap_or_else(|| "unknown".into());
        // Escaped first, then cut: an escaped control character is six characters, and the
        // child refuses an actor over `MAX_ACTOR_CHARS`.
        let who: String = crate::base::echo::escaped(&who).chars().take(100).collect();
        Caller {
            actor: format!("mcp:{who}"),
            session: crate::changelog::new_session_id(),
        }
    }

    /// Runs `cmd` in `context` with the `extra` flags.
    pub(super) async fn exec(
        &self,
        cmd: &Command,
        context: Option<&str>,
        extra: &[String],
        caller: &Caller,
    ) -> Result<Ran, ToolError> {
        let mut flags: Vec<String> = context
            .map(|c| format!("--context={c}"))
            .into_iter()
            .collect();
        if let (Some(ns), false) = (
            &self.namespace,
            cmd.args.iter().any(|a| a.starts_with("--namespace=")),
        ) {
            flags.push(format!("--namespace={ns}"));
        }
        flags.extend(extra.iter().cloned());
        self.runner
            .run(cmd, &flags, caller)
            .await
            .map_err(|e| ToolError::new(Kind::Runtime, e.to_string()))
    }

    /// A read tool: the command's JSON (Secret values masked unless `secrets_shown`), or its
    /// error. `answers` are the exit codes that are answers, not failures (`can_i`'s no,
    /// `drift`'s drift found).
    async fn read(
        &self,
        cmd: Result<Command, BadArguments>,
        context: Option<&str>,
        answers: &[i32],
        secrets_shown: bool,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let cmd = match cmd {
            Ok(c) => c,
            Err(e) => return invalid(e),
        };
        let context = match self.context(context) {
            Ok(c) => c,
            Err(e) => return failed(e),
        };
        let ran = match self.exec(&cmd, context, &[], &Self::caller(ctx)).await {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        if ran.code != 0 && !answers.contains(&ran.code) {
            return failed(ToolError::of(&ran));
        }
        match answer::output(&ran) {
            Ok(out) => CallToolResult::structured(json!({
                "exitCode": ran.code,
                "result": if secrets_shown { out } else { answer::redact_secrets(out) },
                "warnings": answer::warnings(&ran.stderr),
            })),
            Err(e) => failed(e),
        }
    }
}

#[tool_router]
impl Server {
    #[tool(
        description = "Read Kubernetes objects as JSON (kubectl get -o json) after a SelfSubjectAccessReview. Changes nothing. Secret values are masked as <redacted> unless plugin.yaml mcp.showSecretValues allows them. Give `name` for one object, or omit it (optionally with `selector` or `all_namespaces`) to list.",
        annotations(read_only_hint = true)
    )]
    async fn get(
        &self,
        Parameters(i): Parameters<GetInput>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(self
            .read(
                i.command(),
                i.scope.context.as_deref(),
                &[],
                self.show_secret_values,
                &ctx,
            )
            .await)
    }

    #[tool(
        description = "Ask the API server whether the server's user may do a verb on a resource (a SelfSubjectAccessReview, kubectl auth can-i). Changes nothing. Answers {\"allowed\": true|false}.",
        annotations(read_only_hint = true)
    )]
    async fn can_i(
        &self,
        Parameters(i): Parameters<CanIInput>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let r = self
            .read(i.command(), i.scope.context.as_deref(), &[3], false, &ctx)
            .await;
        Ok(with_allowed(r))
    }

    #[tool(
        description = "List the change log: every change made through kubectl-myops on this workstation (by people and agents), with id, time, user, actor, operation, object and result. Changes nothing. Filter by since, object, session, operation, actor (`mcp` for changes made by agents).",
        annotations(read_only_hint = true)
    )]
    async fn changelog_list(
        &self,
        Parameters(i): Parameters<ChangelogListInput>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(self.read(i.command(), None, &[], false, &ctx).await)
    }

    #[tool(
        description = "Show one change-log entry whole: the object's state before and after the change (Secret values masked), the patch, who made it and how it ended. Changes nothing.",
        annotations(read_only_hint = true)
    )]
    async fn changelog_show(
        &self,
        Parameters(i): Parameters<ChangelogShowInput>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(self.read(i.command(), None, &[], false, &ctx).await)
    }

    #[tool(
        description = "Find drift: objects changed since the change log last changed them, with the fields and who owns them now. Changes nothing. exitCode 6 in the result means drift was found.",
        annotations(read_only_hint = true)
    )]
    async fn drift(
        &self,
        Parameters(i): Parameters<DriftInput>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        Ok(self
            .read(i.command(), i.scope.context.as_deref(), &[6], false, &ctx)
            .await)
    }

    #[tool(
        description = "Change fields of one object with a patch (merge by default; strategic or json). First call WITHOUT `confirm`: nothing changes; the answer is the server-side dry run, a diff and a one-time `confirm` token. Call again with the same arguments plus that token to make the change; it is journaled and the answer names the entry and the rollback command that undoes it.",
        annotations(destructive_hint = false, idempotent_hint = false)
    )]
    async fn patch(
        &self,
        Parameters(i): Parameters<PatchInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let change = Change::of(
            "patch",
            &i,
            i.scope.context.as_deref(),
            &i.change,
            Box::new(|rv| i.command(rv)),
        )
        .on(Target::of(&i.type_name, &i.name, &i.scope));
        Ok(self.change(change, retry, &ctx).await)
    }

    #[tool(
        description = "Delete one object. Its whole state is journaled first, so `undelete` can create it again. First call WITHOUT `confirm` previews (a server-side dry run; nothing is deleted) and returns a one-time `confirm` token; call again with the same arguments plus that token to delete.",
        annotations(destructive_hint = true)
    )]
    async fn delete(
        &self,
        Parameters(i): Parameters<DeleteInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let change = Change::of(
            "delete",
            &i,
            i.scope.context.as_deref(),
            &i.change,
            Box::new(|_| i.command()),
        )
        .on(Target::of(&i.type_name, &i.name, &i.scope));
        Ok(self.change(change, retry, &ctx).await)
    }

    #[tool(
        description = "Server-side apply one manifest (YAML or JSON, one object). First call WITHOUT `confirm` previews (dry run and diff against the live object) and returns a one-time `confirm` token; call again with the same arguments plus that token to apply. Journaled; `rollback` undoes it.",
        annotations(destructive_hint = false)
    )]
    async fn apply(
        &self,
        Parameters(i): Parameters<ApplyInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let target = match i.target() {
            Ok(t) => t,
            Err(e) => return Ok(invalid(e).into()),
        };
        let change = Change::of(
            "apply",
            &i,
            i.scope.context.as_deref(),
            &i.change,
            Box::new(|_| i.command()),
        )
        .on(target);
        Ok(self.change(change, retry, &ctx).await)
    }

    #[tool(
        description = "Set the number of replicas of a Deployment, StatefulSet or other scalable object. First call WITHOUT `confirm` previews and returns a one-time `confirm` token; call again with the same arguments plus that token to scale. Journaled; `rollback` restores the old size.",
        annotations(destructive_hint = false)
    )]
    async fn scale(
        &self,
        Parameters(i): Parameters<ScaleInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let change = Change::of(
            "scale",
            &i,
            i.scope.context.as_deref(),
            &i.change,
            Box::new(|rv| i.command(rv)),
        )
        .on(Target::of(&i.type_name, &i.name, &i.scope));
        Ok(self.change(change, retry, &ctx).await)
    }

    #[tool(
        description = "Set or remove labels of one object. First call WITHOUT `confirm` previews and returns a one-time `confirm` token; call again with the same arguments plus that token to change them. Journaled; `rollback` undoes it.",
        annotations(destructive_hint = false)
    )]
    async fn label(
        &self,
        Parameters(i): Parameters<MetaInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(self.meta("label", i, retry, &ctx).await)
    }

    #[tool(
        description = "Set or remove annotations of one object. First call WITHOUT `confirm` previews and returns a one-time `confirm` token; call again with the same arguments plus that token to change them. Journaled; `rollback` undoes it.",
        annotations(destructive_hint = false)
    )]
    async fn annotate(
        &self,
        Parameters(i): Parameters<MetaInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(self.meta("annotate", i, retry, &ctx).await)
    }

    #[tool(
        description = "Undo a journaled change (`entry`), or every change of one tool call (`session`, named in a mutating tool's result): restores the fields it touched, refused when someone changed them since. First call WITHOUT `confirm` previews and returns a one-time `confirm` token; call again with it to roll back.",
        annotations(destructive_hint = false)
    )]
    async fn rollback(
        &self,
        Parameters(i): Parameters<RollbackInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let change = Change::of(
            "rollback",
            &i,
            i.context.as_deref(),
            &i.change,
            Box::new(|_| i.command()),
        );
        Ok(self.change(change, retry, &ctx).await)
    }

    #[tool(
        description = "Create a deleted object again from its journaled state (`entry`, or `type` and `name` for its latest delete). First call WITHOUT `confirm` previews and returns a one-time `confirm` token; call again with it to create the object.",
        annotations(destructive_hint = false)
    )]
    async fn undelete(
        &self,
        Parameters(i): Parameters<UndeleteInput>,
        retry: Retry,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let change = Change::of(
            "undelete",
            &i,
            i.scope.context.as_deref(),
            &i.change,
            Box::new(|_| i.command()),
        );
        Ok(self.change(change, retry, &ctx).await)
    }
}

impl Server {
    /// `label` or `annotate` (`verb`): the same input and flow.
    async fn meta(
        &self,
        verb: &'static str,
        i: MetaInput,
        retry: Retry,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let command: CommandOf<'_> = Box::new(|rv| i.command(verb, rv));
        let change = Change::of(verb, &i, i.scope.context.as_deref(), &i.change, command)
            .on(Target::of(&i.type_name, &i.name, &i.scope));
        self.change(change, retry, ctx).await
    }
}

/// `can_i`'s result with `allowed` (exit 0 yes, 3 no).
fn with_allowed(mut r: CallToolResult) -> CallToolResult {
    if let Some(Value::Object(m)) = r.structured_content.as_mut()
        && let Some(code) = m.get("exitCode").and_then(Value::as_i64)
    {
        m.insert("allowed".into(), Value::Bool(code == 0));
        r.content = vec![rmcp::model::ContentBlock::text(
            Value::Object(m.clone()).to_string(),
        )];
    }
    r
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                format!("kubectl-{}", self.plugin),
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "The guarded kubectl: every call passes plugin.yaml, a SelfSubjectAccessReview and the field policies, and every change is journaled. Mutating tools answer first with a dry run, a diff and a one-time `confirm` token; call again with the token to make the change. Each change's answer names the rollback that undoes it.",
            )
    }
}
