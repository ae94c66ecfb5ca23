//! `get --sort-by=<jsonpath>` as kubectl sorts (pure; `k8s.io/kubectl/pkg/cmd/get/sorter.go`).
//!
//! The expression is relaxed like kubectl's `RelaxedJSONPathExpression` (`.a.b`, `a.b`,
//! `{.a.b}` all mean `{.a.b}`) and evaluated with missing keys allowed on every object;
//! the first result of each is its sort key. The order is kubectl's `isLess`: integers and
//! floats numerically, two strings that both parse as resource quantities (`100m`, `2Gi`,
//! `10`) by quantity, other strings in natural order (`github.com/fvbommel/sortorder`:
//! digit runs compared as numbers, digits before other characters), an object without the
//! field before one with it. Go's `sort.Sort` is an insertion sort up to 12 elements, which
//! is reproduced exactly so ties keep kubectl's order; longer lists use a stable sort.

use serde_json::Value;

use super::jsonpath::Template;

/// Sorting failed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SortError {
    /// The expression is not a JSONPath field path (exit 2).
    #[error("invalid --sort-by {0:?}: {1}; pass a field path such as .metadata.name")]
    Parse(String, String),
    /// No object has the field (kubectl's exit 1).
    #[error(
        "couldn't find any field with path {0:?} in the list of objects; check the --sort-by path"
    )]
    NotFound(String),
    /// Two sort keys of different types (kubectl exits with "unsortable type").
    #[error(
        "field {0} holds values that cannot be compared ({1} and {2}); sort by a field of one type"
    )]
    Unsortable(String, &'static str, &'static str),
}

/// A parsed `--sort-by` expression.
#[derive(Debug, Clone)]
pub struct SortBy {
    source: String,
    template: Template,
}

impl SortBy {
    /// Parses `--sort-by` (relaxed as kubectl: `.a`, `a`, `{.a}`, `{a}`).
    ///
    /// # Errors
    /// [`SortError::Parse`] for a path kubectl would not accept.
    pub fn parse(expr: &str) -> Result<SortBy, SortError> {
        let relaxed = super::custom_columns::relaxed(expr)
            .map_err(|e| SortError::Parse(expr.to_string(), e.to_string()))?;
        if relaxed.is_empty() {
            return Err(SortError::Parse(expr.into(), "the path is empty".into()));
        }
        let template = Template::parse(&relaxed)
            .map_err(|e| SortError::Parse(expr.to_string(), e.to_string()))?;
        Ok(SortBy {
            source: relaxed,
            template,
        })
    }

    fn key(&self, obj: &Value) -> Option<Value> {
        self.template
            .find_results(obj, true)
            .ok()
            .and_then(|r| r.into_iter().next())
            .and_then(|g| g.into_iter().next())
    }

    /// The permutation that sorts `objects` (indices into it), as kubectl orders them.
    ///
    /// # Errors
    /// [`SortError::NotFound`] when no object has the field (and there are objects);
    /// [`SortError::Unsortable`] when keys of different types meet.
    pub fn order<'a, I>(&self, objects: I) -> Result<Vec<usize>, SortError>
    where
        I: IntoIterator<Item = &'a Value>,
    {
        let keys: Vec<Option<Value>> = objects.into_iter().map(|o| self.key(o)).collect();
        if !keys.is_empty() && keys.iter().all(Option::is_none) {
            return Err(SortError::NotFound(self.source.clone()));
        }
        let mut err = None;
        let mut less = |a: usize, b: usize| -> bool {
            match (&keys[a], &keys[b]) {
                (None, _) => true,
                (_, None) => false,
                (Some(x), Some(y)) => match is_less(x, y) {
                    Ok(l) => l,
                    Err((p, q)) => {
                        err.get_or_insert(SortError::Unsortable(self.source.clone(), p, q));
                        false
                    }
                },
            }
        };
        let mut idx: Vec<usize> = (0..keys.len()).collect();
        if idx.len() <= 12 {
            // Go's insertionSort(data, a, b).
            for i in 1..idx.len() {
                let mut j = i;
                while j > 0 && less(idx[j], idx[j - 1]) {
                    idx.swap(j, j - 1);
                    j -= 1;
                }
            }
        } else {
            idx.sort_by(|&a, &b| {
                if less(a, b) {
                    std::cmp::Ordering::Less
                } else if less(b, a) {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            });
        }
        match err {
            Some(e) => Err(e),
            None => Ok(idx),
        }
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "slice",
        Value::Object(_) => "map",
    }
}

/// kubectl `isLess` on two unstructured values.
fn is_less(a: &Value, b: &Value) -> Result<bool, (&'static str, &'static str)> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() == y.is_f64() => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                Ok(x < y)
            } else {
                Ok(x.as_f64().unwrap_or(0.0) < y.as_f64().unwrap_or(0.0))
            }
        }
        (Value::String(x), Value::String(y)) => match (quantity(x), quantity(y)) {
            (Some(p), Some(q)) => Ok(p < q),
            _ => Ok(natural_less(x, y)),
        },
        (Value::Null, Value::Null) => Ok(false),
        (Value::Null, _) => Ok(true),
        (_, Value::Null) => Ok(false),
        _ => Err((type_name(a), type_name(b))),
    }
}

/// `sortorder.NaturalLess`: digit runs compare as numbers (fewer leading zeros first on a
/// tie), digits before other bytes, other bytes bytewise.
pub fn natural_less(s1: &str, s2: &str) -> bool {
    let (a, b) = (s1.as_bytes(), s2.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (d1, d2) = (a[i].is_ascii_digit(), b[j].is_ascii_digit());
        if d1 != d2 {
            return d1;
        }
        if !d1 {
            if a[i] != b[j] {
                return a[i] < b[j];
            }
            i += 1;
            j += 1;
            continue;
        }
        while i < a.len() && a[i] == b'0' {
            i += 1;
        }
        while j < b.len() && b[j] == b'0' {
            j += 1;
        }
        let (nz1, nz2) = (i, j);
        while i < a.len() && a[i].is_ascii_digit() {
            i += 1;
        }
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if i - nz1 != j - nz2 {
            return i - nz1 < j - nz2;
        }
        if a[nz1..i] != b[nz2..j] {
            return a[nz1..i] < b[nz2..j];
        }
        if nz1 != nz2 {
            return nz1 < nz2;
        }
    }
    a.len() < b.len()
}

/// The value of a resource quantity (`k8s.io/apimachinery/pkg/api/resource`
/// `ParseQuantity`: a signed decimal, then a binary suffix `Ki…Ei`, a decimal suffix
/// `n u m k M G T P E`, or an exponent `e3`), as a float (enough to order them), or `None`
/// when `s` is not one.
pub fn quantity(s: &str) -> Option<f64> {
    let num_end = s
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && (c == '+' || c == '-'))))
        .map_or(s.len(), |(i, _)| i);
    let (num, suffix) = s.split_at(num_end);
    let digits = num.trim_start_matches(['+', '-']);
    if digits.is_empty() || digits == "." || digits.matches('.').count() > 1 {
        return None;
    }
    let n: f64 = num.parse().ok()?;
    let mult = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024f64,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        e => {
            let exp = e.strip_prefix(['e', 'E'])?;
            let body = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            10f64.powi(exp.parse().ok()?)
        }
    };
    Some(n * mult)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn natural_order_compares_digit_runs_as_numbers() {
        assert!(natural_less("web-2", "web-10"));
        assert!(!natural_less("web-10", "web-2"));
        assert!(natural_less("a1", "a01"));
        assert!(natural_less("1a", "a"));
        assert!(natural_less("ab", "abc"));
        assert!(!natural_less("abc", "abc"));
    }

    #[test]
    fn quantities_order_by_value() {
        assert_eq!(quantity("100m"), Some(0.1));
        assert_eq!(quantity("2Ki"), Some(2048.0));
        assert_eq!(quantity("1e3"), Some(1000.0));
        assert_eq!(quantity("db"), None);
        assert_eq!(quantity("web-1"), None);
    }

    #[test]
    fn missing_fields_sort_first_and_no_field_at_all_is_an_error() {
        let objs = [
            json!({"metadata": {"name": "web-10"}, "n": 3}),
            json!({"metadata": {"name": "web-2"}}),
            json!({"metadata": {"name": "db"}, "n": 1}),
        ];
        let by = SortBy::parse(".metadata.name").unwrap();
        assert_eq!(by.order(&objs).unwrap(), [2, 1, 0]);
        let by = SortBy::parse("{.n}").unwrap();
        assert_eq!(by.order(&objs).unwrap(), [1, 2, 0]);
        let by = SortBy::parse("nope").unwrap();
        assert_eq!(
            by.order(&objs).unwrap_err().to_string(),
            "couldn't find any field with path \"{.nope}\" in the list of objects; check the --sort-by path"
        );
        assert!(SortBy::parse("{.a").is_err());
    }
}
