//! Which objects a command acts on, the one implementation `delete`, `scale`, `label` and
//! `annotate` share: kubectl's resource-builder rules for `TYPE NAME…`, `TYPE/NAME…`,
//! `-l`/`--field-selector` and `--all` (`k8s.io/cli-runtime/pkg/resource/builder.go`,
//! `ResourceTypeOrNameArgs`, `LabelSelectorParam`), pure in [`selection`]; and the objects
//! themselves ([`Session::gather`]): named objects resolved, selected ones listed after the
//! plugin.yaml boundary of the command's verb and a `list` review ([`Session::select`]).

use kube::api::{Api, DynamicObject, ListParams};

use crate::cluster::ResolvedType;
use crate::config::Verb;
use crate::guard::authz::AccessRequest;
use crate::guard::{GuardError, ObjectRef, Session, Target, parse_targets};

/// What the arguments select, once they passed kubectl's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Named objects, per TYPE as typed.
    Named(Vec<Target>),
    /// Every object of each TYPE matching the selectors (none: `--all`).
    Selected(Vec<String>),
}

impl Selection {
    /// Whether exactly one object is named (kubectl's `IntoSingleItemImplied`): `TYPE NAME`
    /// or `TYPE/NAME`, never a selector. `--resource-version` needs it, and `--list` prints
    /// without a per-object header then.
    pub fn single(&self) -> bool {
        matches!(self, Selection::Named(t) if t.len() == 1 && t[0].names.len() == 1)
    }
}

/// The selecting arguments of a command, borrowed from its clap struct.
#[derive(Debug, Clone, Copy, Default)]
pub struct SelectArgs<'a> {
    /// `TYPE NAME…`, `TYPE/NAME…` or `TYPE[,TYPE…]`.
    pub args: &'a [String],
    /// `-l`/`--selector`.
    pub selector: Option<&'a str>,
    /// `--field-selector`.
    pub field_selector: Option<&'a str>,
    /// `--all`.
    pub all: bool,
    /// Whether `--all` is a selector (`delete`: cli-runtime's `SelectAllParam`, so names with
    /// it are refused) rather than permission to select without one (`scale`, `label`,
    /// `annotate`: `ResourceTypeOrNameArgs(all, …)`, where names given win).
    pub all_selects: bool,
    /// `-A`/`--all-namespaces`.
    pub all_namespaces: bool,
}

/// Applies the resource builder's rules to `a` (pure); a command checks its own flag
/// combinations (delete's `--now` with `--grace-period`, label's `--all` with `-l`) first.
/// Messages are kubectl's own.
///
/// # Errors
/// kubectl's usage message, or [`parse_targets`]'s.
pub fn selection(a: &SelectArgs<'_>) -> Result<Selection, String> {
    let selector = a.selector.is_some() || a.field_selector.is_some();
    if let Some(l) = a.selector {
        crate::base::validate::check_label_selector(l)?;
    }
    if let Some(f) = a.field_selector {
        crate::base::validate::check_field_selector(f)?;
    }
    crate::base::validate::check_selectors_fit(a.selector, a.field_selector)?;
    let targets = parse_targets(a.args)?;
    let named = targets.iter().any(|t| !t.names.is_empty());
    if named && (selector || (a.all && a.all_selects)) {
        return Err("name cannot be provided when a selector is specified".into());
    }
    if named && a.all_namespaces {
        return Err("a resource cannot be retrieved by name across all namespaces".into());
    }
    if named {
        return Ok(Selection::Named(targets));
    }
    if !selector && !a.all {
        return Err("resource(s) were provided, but no name was specified".into());
    }
    Ok(Selection::Selected(
        targets.into_iter().map(|t| t.type_name).collect(),
    ))
}

impl Session<'_> {
    /// The objects `selection` names for a command bounded by plugin.yaml verb `verb`:
    /// named objects resolved (no request but discovery), selected ones listed
    /// ([`Session::select`]), in the order given.
    ///
    /// # Errors
    /// Unknown TYPE (2), a refusal of the `list` review (3), the list's failure.
    pub async fn gather(
        &self,
        verb: Verb,
        selection: &Selection,
        a: &SelectArgs<'_>,
    ) -> Result<Vec<ObjectRef>, GuardError> {
        let mut out = Vec::new();
        match selection {
            Selection::Named(targets) => {
                for t in targets {
                    for n in &t.names {
                        out.push(self.object(&t.type_name, n, None).await?);
                    }
                }
            }
            Selection::Selected(types) => {
                for ty in types {
                    let t = self.resolve(ty).await?;
                    out.extend(
                        self.select(verb, &t, a.all_namespaces, a.selector, a.field_selector)
                            .await?,
                    );
                }
            }
        }
        // A protection question names every object the command goes on to change.
        self.plan_changes(out.iter().map(ObjectRef::display));
        Ok(out)
    }

    /// The objects of type `t` that `label` / `field` select (all of them when both are
    /// `None`: `--all`) in the session's namespace, or in every namespace with
    /// `all_namespaces`, after the plugin.yaml boundary of `verb` and a `list` review.
    ///
    /// # Errors
    /// The refusal ([`GuardError::Gate`], exit 3) or the list's [`crate::cluster::ApiError`].
    pub async fn select(
        &self,
        verb: Verb,
        t: &ResolvedType,
        all_namespaces: bool,
        label: Option<&str>,
        field: Option<&str>,
    ) -> Result<Vec<ObjectRef>, GuardError> {
        let namespace = self.namespace_for(t, all_namespaces);
        let review = AccessRequest {
            verb: "list".into(),
            group: t.api.group.clone(),
            resource: t.api.plural.clone(),
            subresource: None,
            namespace: namespace.clone(),
            name: None,
        };
        self.authorize(verb, t, all_namespaces, &[review]).await?;
        let api: Api<DynamicObject> = match &namespace {
            Some(ns) => Api::namespaced_with(self.client().clone(), ns, &t.api),
            None => Api::all_with(self.client().clone(), &t.api),
        };
        let mut lp = ListParams::default();
        if let Some(l) = label {
            lp = lp.labels(l);
        }
        if let Some(f) = field {
            lp = lp.fields(f);
        }
        let list = self.call("the list of the objects", api.list(&lp)).await?;
        Ok(list
            .items
            .into_iter()
            .filter_map(|o| {
                Some(ObjectRef {
                    t: t.clone(),
                    namespace: t.namespaced.then(|| o.metadata.namespace.clone()).flatten(),
                    name: o.metadata.name?,
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_builders_rules_and_messages() {
        let a = args(&["cm", "a", "b"]);
        let s = selection(&SelectArgs {
            args: &a,
            ..Default::default()
        })
        .unwrap();
        assert!(matches!(&s, Selection::Named(t) if t[0].names.len() == 2));
        assert!(!s.single());
        let one = args(&["cm/a"]);
        assert!(
            selection(&SelectArgs {
                args: &one,
                ..Default::default()
            })
            .unwrap()
            .single()
        );
        let ty = args(&["cm"]);
        assert_eq!(
            selection(&SelectArgs {
                args: &ty,
                ..Default::default()
            })
            .unwrap_err(),
            "resource(s) were provided, but no name was specified"
        );
        assert_eq!(
            selection(&SelectArgs {
                args: &a,
                all: true,
                all_selects: true,
                ..Default::default()
            })
            .unwrap_err(),
            "name cannot be provided when a selector is specified"
        );
        assert!(matches!(
            selection(&SelectArgs {
                args: &a,
                all: true,
                ..Default::default()
            }),
            Ok(Selection::Named(_))
        ));
        assert_eq!(
            selection(&SelectArgs {
                args: &a,
                all_namespaces: true,
                ..Default::default()
            })
            .unwrap_err(),
            "a resource cannot be retrieved by name across all namespaces"
        );
        assert_eq!(
            selection(&SelectArgs {
                args: &ty,
                selector: Some("app=web"),
                ..Default::default()
            })
            .unwrap(),
            Selection::Selected(vec!["cm".into()])
        );
        assert!(
            selection(&SelectArgs {
                args: &ty,
                selector: Some("a b c"),
                ..Default::default()
            })
            .is_err()
        );
    }
}
