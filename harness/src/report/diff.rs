//! The difference between two runs, per implementation and case: fixed (failed, now passes),
//! broken (passed, now fails), new crashes (CRASH or TIMEOUT now, not before), other status
//! changes, and cases only in one run.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::results::Run;
use crate::status::Status;

/// One case whose status changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub implementation: String,
    pub case: String,
    pub old: Status,
    pub new: Status,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    pub fixed: Vec<Change>,
    pub broken: Vec<Change>,
    pub new_crashes: Vec<Change>,
    /// Any other status change (PASS -> QUALITY_WARNING, FAIL -> NOT_SUPPORTED...); a new
    /// crash is listed once, under `new_crashes` (and `broken` when it passed before).
    pub changed: Vec<Change>,
    /// `(implementation, case)` only in the new run.
    pub added: Vec<(String, String)>,
    pub removed: Vec<(String, String)>,
}

fn crashed(s: Status) -> bool {
    matches!(s, Status::Crash | Status::Timeout)
}

impl Diff {
    pub fn of(old: &Run, new: &Run) -> Diff {
        let key = |r: &crate::results::CaseResult| (r.implementation.clone(), r.case.clone());
        let olds: BTreeMap<_, Status> = old.results.iter().map(|r| (key(r), r.status)).collect();
        let news: BTreeMap<_, Status> = new.results.iter().map(|r| (key(r), r.status)).collect();
        let mut d = Diff::default();
        for (k, &n) in &news {
            let Some(&o) = olds.get(k) else {
                d.added.push(k.clone());
                continue;
            };
            if o == n {
                continue;
            }
            let c = Change {
                implementation: k.0.clone(),
                case: k.1.clone(),
                old: o,
                new: n,
            };
            if crashed(n) && !crashed(o) {
                d.new_crashes.push(c.clone());
            }
            if o.is_failure() && n.is_pass() {
                d.fixed.push(c);
            } else if o.is_pass() && n.is_failure() {
                d.broken.push(c);
            } else if !(crashed(n) && !crashed(o)) {
                d.changed.push(c);
            }
        }
        d.removed = olds
            .keys()
            .filter(|k| !news.contains_key(*k))
            .cloned()
            .collect();
        d
    }
    /// Something got worse: a case broke or crashes now.
    pub fn regressed(&self) -> bool {
        !self.broken.is_empty() || !self.new_crashes.is_empty()
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        let section = |out: &mut String, title: &str, v: &[Change]| {
            let _ = writeln!(out, "{title}: {}", v.len());
            for c in v {
                let _ = writeln!(
                    out,
                    "  {} {}: {} -> {}",
                    c.implementation, c.case, c.old, c.new
                );
            }
        };
        section(&mut out, "fixed", &self.fixed);
        section(&mut out, "broken", &self.broken);
        section(&mut out, "new crashes", &self.new_crashes);
        section(&mut out, "other changes", &self.changed);
        for (title, v) in [("added", &self.added), ("removed", &self.removed)] {
            let _ = writeln!(out, "{title}: {}", v.len());
            for (i, c) in v {
                let _ = writeln!(out, "  {i} {c}");
            }
        }
        out
    }
}
