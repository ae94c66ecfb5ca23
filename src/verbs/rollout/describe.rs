//! A pod template as `kubectl rollout history --revision N` and `rollout undo --dry-run=client`
//! print it (pure): kubectl 1.36's `describe.DescribePodTemplate` (`k8s.io/kubectl@v0.36.3
//! pkg/describe/describe.go`) written through its prefix writer into a plain buffer, so the tabs stay tabs.
//! Covered: labels, annotations, service account, init and app containers (image, ports,
//! command, args, resources, probes, env and envFrom, mounts), the common volume sources
//! (emptyDir, hostPath, secret, configMap, persistentVolumeClaim; any other is named by its
//! field), topology spread constraints, priority class, node selectors and tolerations.

use serde_json::{Map, Value};

/// kubectl's `maxAnnotationLen`: a longer `key: value` is printed over several lines.
const MAX_ANNOTATION_LEN: usize = 140;

/// The annotation describe never prints (`skipAnnotations`).
const SKIPPED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// kubectl's prefix writer over a string: two spaces per level, terminal control
/// characters (other than tab and newline) escaped as `printers.WriteEscaped` does.
struct Out(String);

impl Out {
    fn w(&mut self, level: usize, text: &str) {
        self.0.push_str(&"  ".repeat(level));
        for c in text.chars() {
            if c.is_control() && c != '\t' && c != '\n' {
                self.0.extend(c.escape_default());
            } else {
                self.0.push(c);
            }
        }
    }
}

fn s<'v>(v: &'v Value, key: &str) -> &'v str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn arr<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn obj<'v>(v: &'v Value, key: &str) -> Option<&'v Map<String, Value>> {
    v.get(key).and_then(Value::as_object)
}

/// A JSON scalar as Go's `%v` prints it (a number, a bool, a string bare).
fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(x)) => x.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// `DescribePodTemplate(template)` as text.
pub fn pod_template(template: &Value) -> String {
    let mut w = Out(String::new());
    w.w(0, "Pod Template:\n");
    if template.is_null() {
        w.w(1, "<unset>");
        return w.0;
    }
    let meta = template.get("metadata").unwrap_or(&Value::Null);
    let spec = template.get("spec").unwrap_or(&Value::Null);
    labels(&mut w, "  Labels", obj(meta, "labels"));
    if let Some(a) = obj(meta, "annotations").filter(|a| !a.is_empty()) {
        annotations(&mut w, "  Annotations", a);
    }
    let sa = s(spec, "serviceAccountName");
    if !sa.is_empty() {
        w.w(1, &format!("Service Account:\t{sa}\n"));
    }
    if !arr(spec, "initContainers").is_empty() {
        containers(&mut w, "Init Containers", arr(spec, "initContainers"));
    }
    containers(&mut w, "Containers", arr(spec, "containers"));
    volumes(&mut w, arr(spec, "volumes"));
    spread(&mut w, arr(spec, "topologySpreadConstraints"));
    let pc = s(spec, "priorityClassName");
    if !pc.is_empty() {
        w.w(1, &format!("Priority Class Name:\t{pc}\n"));
    }
    labels(&mut w, "  Node-Selectors", obj(spec, "nodeSelector"));
    tolerations(&mut w, arr(spec, "tolerations"));
    w.0
}

/// `printLabelsMultiline`: sorted `k=v`, one a line, continued after a tab.
fn labels(w: &mut Out, title: &str, m: Option<&Map<String, Value>>) {
    w.w(0, &format!("{title}:\t"));
    let mut keys: Vec<&String> = m.map(|m| m.keys().collect()).unwrap_or_default();
    if keys.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    keys.sort();
    for (i, k) in keys.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let v = m.and_then(|m| m.get(*k));
        w.w(0, &format!("{k}={}\n", text(v)));
    }
}

/// `printAnnotationsMultiline`: sorted, long or multi-line values over several lines.
fn annotations(w: &mut Out, title: &str, m: &Map<String, Value>) {
    w.w(0, &format!("{title}:\t"));
    let mut keys: Vec<&String> = m.keys().filter(|k| *k != SKIPPED_ANNOTATION).collect();
    if keys.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    keys.sort();
    for (i, k) in keys.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let full = text(m.get(k.as_str()));
        let value = full.strip_suffix('\n').unwrap_or(&full);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            w.w(0, &format!("{k}:\n"));
            for line in value.split('\n') {
                w.w(
                    0,
                    &format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2)),
                );
            }
        } else {
            w.w(0, &format!("{k}: {value}\n"));
        }
    }
}

/// kubectl's `shorten`: the first `max` bytes and `...` (cut at a character boundary here).
fn shorten(line: &str, max: usize) -> String {
    if line.len() <= max {
        return line.to_string();
    }
    let mut end = max;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &line[..end])
}

fn containers(w: &mut Out, label: &str, list: &[Value]) {
    let none = if list.is_empty() { " <none>" } else { "" };
    w.w(0, &format!("  {label}:{none}\n"));
    for c in list {
        w.w(1, &format!(" {}:\n", s(c, "name")));
        w.w(2, &format!("Image:\t{}\n", s(c, "image")));
        let ports = arr(c, "ports");
        let port_of = |key: &str| {
            ports
                .iter()
                .map(|p| {
                    let mut x = format!(
                        "{}/{}",
                        p.get(key).and_then(Value::as_i64).unwrap_or(0),
                        s(p, "protocol")
                    );
                    if !s(p, "name").is_empty() {
                        x = format!("{x} ({})", s(p, "name"));
                    }
                    x
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (one, many, key) in [
            ("Port", "Ports", "containerPort"),
            ("Host Port", "Host Ports", "hostPort"),
        ] {
            let p = port_of(key);
            if p.contains(',') {
                w.w(2, &format!("{many}:\t{p}\n"));
            } else {
                w.w(
                    2,
                    &format!("{one}:\t{}\n", if p.is_empty() { "<none>" } else { &p }),
                );
            }
        }
        if let Some(sp) = c.pointer("/securityContext/seccompProfile") {
            w.w(2, &format!("SeccompProfile:\t{}\n", s(sp, "type")));
            if s(sp, "type") == "Localhost" {
                w.w(
                    3,
                    &format!("LocalhostProfile:\t{}\n", s(sp, "localhostProfile")),
                );
            }
        }
        for (title, key) in [("Command", "command"), ("Args", "args")] {
            if !arr(c, key).is_empty() {
                w.w(2, &format!("{title}:\n"));
                for part in arr(c, key) {
                    for line in text(Some(part)).split('\n') {
                        w.w(3, &format!("{line}\n"));
                    }
                }
            }
        }
        resources(w, c.get("resources"));
        for (title, key) in [
            ("Liveness", "livenessProbe"),
            ("Readiness", "readinessProbe"),
            ("Startup", "startupProbe"),
        ] {
            if let Some(p) = c.get(key) {
                w.w(2, &format!("{title}:\t{}\n", probe(p)));
            }
        }
        if !arr(c, "envFrom").is_empty() {
            env_from(w, arr(c, "envFrom"));
        }
        env(w, arr(c, "env"));
        mounts(w, c);
    }
}

fn resources(w: &mut Out, r: Option<&Value>) {
    let Some(r) = r else { return };
    for (title, key) in [("Limits", "limits"), ("Requests", "requests")] {
        if let Some(m) = obj(r, key).filter(|m| !m.is_empty()) {
            w.w(2, &format!("{title}:\n"));
            let mut names: Vec<&String> = m.keys().collect();
            names.sort();
            for n in names {
                w.w(3, &format!("{n}:\t{}\n", text(m.get(n.as_str()))));
            }
        }
    }
}

/// `DescribeProbe`.
fn probe(p: &Value) -> String {
    let n = |k: &str| p.get(k).and_then(Value::as_i64).unwrap_or(0);
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        n("initialDelaySeconds"),
        n("timeoutSeconds"),
        n("periodSeconds"),
        n("successThreshold"),
        n("failureThreshold")
    );
    if let Some(e) = p.get("exec") {
        let cmd: Vec<String> = arr(e, "command").iter().map(|c| text(Some(c))).collect();
        return format!("exec [{}] {attrs}", cmd.join(" "));
    }
    if let Some(h) = p.get("httpGet") {
        let port = text(h.get("port"));
        let host = s(h, "host");
        let hostport = if port.is_empty() {
            host.to_string()
        } else if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        return format!(
            "http-get {}://{hostport}{} {attrs}",
            s(h, "scheme").to_lowercase(),
            s(h, "path")
        );
    }
    if let Some(t) = p.get("tcpSocket") {
        return format!(
            "tcp-socket {}:{} {attrs}",
            s(t, "host"),
            text(t.get("port"))
        );
    }
    if let Some(g) = p.get("grpc") {
        return format!(
            "grpc <pod>:{} {} {attrs}",
            text(g.get("port")),
            s(g, "service")
        );
    }
    format!("unknown {attrs}")
}

fn env_from(w: &mut Out, list: &[Value]) {
    w.w(2, "Environment Variables from:\n");
    for e in list {
        let (from, r) = match (e.get("configMapRef"), e.get("secretRef")) {
            (Some(r), _) => ("ConfigMap", r),
            (None, Some(r)) => ("Secret", r),
            _ => ("", &Value::Null),
        };
        let optional = r.get("optional") == Some(&Value::Bool(true));
        let prefix = s(e, "prefix");
        if prefix.is_empty() {
            w.w(
                3,
                &format!("{}\t{from}\tOptional: {optional}\n", s(r, "name")),
            );
        } else {
            w.w(
                3,
                &format!(
                    "{}\t{from} with prefix '{prefix}'\tOptional: {optional}\n",
                    s(r, "name")
                ),
            );
        }
    }
}

fn env(w: &mut Out, list: &[Value]) {
    let none = if list.is_empty() { "\t<none>" } else { "" };
    w.w(2, &format!("Environment:{none}\n"));
    for e in list {
        let name = s(e, "name");
        let Some(from) = e.get("valueFrom") else {
            for (i, line) in s(e, "value").split('\n').enumerate() {
                if i == 0 {
                    w.w(3, &format!("{name}:\t{line}\n"));
                } else {
                    w.w(3, &format!("\t{line}\n"));
                }
            }
            continue;
        };
        let optional = |r: &Value| r.get("optional") == Some(&Value::Bool(true));
        if let Some(f) = from.get("fieldRef") {
            w.w(
                3,
                &format!("{name}:\t ({}:{})\n", s(f, "apiVersion"), s(f, "fieldPath")),
            );
        } else if let Some(r) = from.get("resourceFieldRef") {
            let resource = s(r, "resource");
            w.w(3, &format!("{name}:\t ({resource})\n"));
        } else if let Some(r) = from.get("secretKeyRef") {
            w.w(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' in secret '{}'>\tOptional: {}\n",
                    s(r, "key"),
                    s(r, "name"),
                    optional(r)
                ),
            );
        } else if let Some(r) = from.get("configMapKeyRef") {
            w.w(
                3,
                &format!(
                    "{name}:\t<set to the key '{}' of config map '{}'>\tOptional: {}\n",
                    s(r, "key"),
                    s(r, "name"),
                    optional(r)
                ),
            );
        }
    }
}

fn mounts(w: &mut Out, c: &Value) {
    let list = arr(c, "volumeMounts");
    let none = if list.is_empty() { "\t<none>" } else { "" };
    w.w(2, &format!("Mounts:{none}\n"));
    let mut sorted: Vec<&Value> = list.iter().collect();
    sorted.sort_by(|a, b| s(a, "mountPath").cmp(s(b, "mountPath")));
    for m in sorted {
        let mut flags = vec![if m.get("readOnly") == Some(&Value::Bool(true)) {
            "ro".to_string()
        } else {
            "rw".to_string()
        }];
        if !s(m, "subPath").is_empty() {
            flags.push(format!("path={:?}", s(m, "subPath")));
        }
        w.w(
            3,
            &format!(
                "{} from {} ({})\n",
                s(m, "mountPath"),
                s(m, "name"),
                flags.join(",")
            ),
        );
    }
    let devices = arr(c, "volumeDevices");
    if !devices.is_empty() {
        w.w(2, &format!("Devices:{none}\n"));
        let mut sorted: Vec<&Value> = devices.iter().collect();
        sorted.sort_by(|a, b| s(a, "devicePath").cmp(s(b, "devicePath")));
        for d in sorted {
            w.w(
                3,
                &format!("{} from {}\n", s(d, "devicePath"), s(d, "name")),
            );
        }
    }
}

fn volumes(w: &mut Out, list: &[Value]) {
    if list.is_empty() {
        w.w(0, "  Volumes:\t<none>\n");
        return;
    }
    w.w(0, "  Volumes:\n");
    for v in list {
        w.w(1, &format!(" {}:\n", s(v, "name")));
        let optional = |r: &Value| r.get("optional") == Some(&Value::Bool(true));
        if let Some(h) = v.get("hostPath") {
            // A type the server defaulted to "" prints empty; only an absent one is `<none>`.
            let t = h.get("type").map_or("<none>", |t| t.as_str().unwrap_or(""));
            w.w(2, &format!("Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{t}\n", s(h, "path")));
        } else if let Some(e) = v.get("emptyDir") {
            let limit = text(e.get("sizeLimit"));
            let limit = if limit.is_empty() || limit == "0" {
                "<unset>".to_string()
            } else {
                limit
            };
            w.w(2, &format!("Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{limit}\n", s(e, "medium")));
        } else if let Some(x) = v.get("secret") {
            w.w(2, &format!("Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n", s(x, "secretName"), optional(x)));
        } else if let Some(x) = v.get("configMap") {
            w.w(2, &format!("Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n", s(x, "name"), optional(x)));
        } else if let Some(x) = v.get("persistentVolumeClaim") {
            w.w(2, &format!("Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n", s(x, "claimName"), x.get("readOnly") == Some(&Value::Bool(true))));
        } else if let Some(kind) = v
            .as_object()
            .and_then(|m| m.keys().find(|k| k.as_str() != "name"))
        {
            w.w(2, &format!("Type:\t{kind}\n"));
        }
    }
}

fn spread(w: &mut Out, list: &[Value]) {
    if list.is_empty() {
        return;
    }
    let mut sorted: Vec<&Value> = list.iter().collect();
    sorted.sort_by(|a, b| s(a, "topologyKey").cmp(s(b, "topologyKey")));
    w.w(0, "  Topology Spread Constraints:\t");
    for (i, t) in sorted.iter().enumerate() {
        if i != 0 {
            w.w(0, "  \t");
        }
        w.w(
            0,
            &format!(
                "{}:{} when max skew {} is exceeded",
                s(t, "topologyKey"),
                s(t, "whenUnsatisfiable"),
                t.get("maxSkew").and_then(Value::as_i64).unwrap_or(0)
            ),
        );
        if let Some(sel) = t.get("labelSelector") {
            let wrapped = serde_json::json!({"spec": {"selector": sel}});
            let text = super::revisions::selector_string(&wrapped);
            w.w(
                0,
                &format!(
                    " for selector {}",
                    if text.is_empty() { "<none>" } else { &text }
                ),
            );
        }
        w.w(0, "\n");
    }
}

fn tolerations(w: &mut Out, list: &[Value]) {
    w.w(0, "  Tolerations:\t");
    if list.is_empty() {
        w.w(0, "<none>\n");
        return;
    }
    let mut sorted: Vec<&Value> = list.iter().collect();
    sorted.sort_by(|a, b| s(a, "key").cmp(s(b, "key")));
    for (i, t) in sorted.iter().enumerate() {
        if i != 0 {
            w.w(0, "\t");
        }
        let (key, value, effect) = (s(t, "key"), s(t, "value"), s(t, "effect"));
        let mut line = key.to_string();
        if !value.is_empty() {
            line.push_str(&format!("={value}"));
        }
        if !effect.is_empty() {
            line.push_str(&format!(":{effect}"));
        }
        if s(t, "operator") == "Exists" && value.is_empty() {
            line.push_str(if key.is_empty() && effect.is_empty() {
                "op=Exists"
            } else {
                " op=Exists"
            });
        }
        if let Some(secs) = t.get("tolerationSeconds").and_then(Value::as_i64) {
            line.push_str(&format!(" for {secs}s"));
        }
        w.w(0, &format!("{line}\n"));
    }
}
