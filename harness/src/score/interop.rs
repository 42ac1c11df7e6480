//! Interop across the implementations of one run: per case, whether it passes on every
//! implementation, and the case x implementation and feature x implementation matrices the
//! reports draw.
//!
//! A case is [`Interop::Interoperable`] only when every implementation of the run scored it and
//! passed (PASS or QUALITY_WARNING). A case one implementation does not score (NOT_SUPPORTED,
//! SKIP, NOTRUN, HARNESS_ERROR, or not run at all) is no evidence that files interoperate, even
//! when every other implementation passes it: it is [`Interop::Unproven`], shown apart. A scored
//! failure anywhere (FAIL, ERROR, CRASH, TIMEOUT, expected failures included) makes the case
//! [`Interop::Failing`]; a case nobody scored is [`Interop::Unscored`].

use std::collections::BTreeMap;

use serde::Serialize;

use crate::case::Tier;
use crate::results::Run;
use crate::status::Status;

/// How a case fares across the implementations of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Interop {
    /// Scored and passed by every implementation of the run.
    Interoperable,
    /// Passed by every implementation that scored it, not scored by at least one.
    Unproven,
    /// A scored failure on at least one implementation.
    Failing,
    /// Scored by no implementation.
    Unscored,
}

impl Interop {
    pub const ALL: [Interop; 4] = [
        Interop::Interoperable,
        Interop::Unproven,
        Interop::Failing,
        Interop::Unscored,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Interop::Interoperable => "interoperable",
            Interop::Unproven => "unproven",
            Interop::Failing => "failing",
            Interop::Unscored => "unscored",
        }
    }

    /// The class of a case from its statuses on every implementation of the run (`None`: the
    /// implementation did not run it).
    pub fn of(statuses: &[Option<Status>]) -> Interop {
        let outcomes: Vec<InteropOutcome> =
            statuses.iter().map(|s| InteropOutcome::of(*s)).collect();
        if outcomes.contains(&InteropOutcome::Fail) {
            Interop::Failing
        } else if !outcomes.is_empty() && outcomes.iter().all(|o| *o == InteropOutcome::Pass) {
            Interop::Interoperable
        } else if outcomes.contains(&InteropOutcome::Pass) {
            Interop::Unproven
        } else {
            Interop::Unscored
        }
    }
}

/// What one implementation's status says about a case, for interop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum InteropOutcome {
    Pass,
    Fail,
    /// Outside every denominator, or not run.
    NotScored,
}

impl InteropOutcome {
    pub fn of(status: Option<Status>) -> InteropOutcome {
        match status {
            Some(s) if s.is_pass() => InteropOutcome::Pass,
            Some(s) if s.is_failure() => InteropOutcome::Fail,
            _ => InteropOutcome::NotScored,
        }
    }
}

/// One implementation's result of a case, as a matrix cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    pub status: Status,
    /// Listed in the implementation's known-failure file.
    pub known_failure: bool,
}

/// One case across the implementations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseRow {
    pub case: String,
    pub tier: Tier,
    pub features: Vec<String>,
    /// One cell per implementation of the run, in run order; `None`: not run by it.
    pub cells: Vec<Option<Cell>>,
    pub interop: Interop,
}

impl CaseRow {
    /// The implementations do not all have the same outcome (pass, scored failure, not
    /// scored): one passes where another fails, or one scores what another does not.
    pub fn disagree(&self) -> bool {
        let mut outcomes = self
            .cells
            .iter()
            .map(|c| InteropOutcome::of(c.map(|c| c.status)));
        let Some(first) = outcomes.next() else {
            return false;
        };
        outcomes.any(|o| o != first)
    }

    /// What the markdown lists: a disagreement.
    pub fn listed_in_markdown(&self) -> bool {
        self.disagree()
    }

    /// What the HTML shows open: a disagreement or a failure anywhere.
    pub fn needs_attention(&self) -> bool {
        self.disagree() || self.interop == Interop::Failing
    }
}

/// Case counts by interop class.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InteropTally {
    pub cases: u32,
    pub interoperable: u32,
    pub unproven: u32,
    pub failing: u32,
    pub unscored: u32,
    /// Cases (of any class) where the implementations' outcomes differ.
    pub disagreements: u32,
}

impl InteropTally {
    pub fn add(&mut self, row: &CaseRow) {
        self.cases += 1;
        *match row.interop {
            Interop::Interoperable => &mut self.interoperable,
            Interop::Unproven => &mut self.unproven,
            Interop::Failing => &mut self.failing,
            Interop::Unscored => &mut self.unscored,
        } += 1;
        if row.disagree() {
            self.disagreements += 1;
        }
    }

    pub fn count(&self, class: Interop) -> u32 {
        match class {
            Interop::Interoperable => self.interoperable,
            Interop::Unproven => self.unproven,
            Interop::Failing => self.failing,
            Interop::Unscored => self.unscored,
        }
    }

    /// `interoperable/cases`, then the unproven ones apart when there are any
    /// (`12/20, 5 unproven`); `-` without cases.
    pub fn display(&self) -> String {
        match (self.cases, self.unproven) {
            (0, _) => "-".to_owned(),
            (c, 0) => format!("{}/{c}", self.interoperable),
            (c, u) => format!("{}/{c}, {u} unproven", self.interoperable),
        }
    }
}

/// The interop matrix of a run of at least two implementations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// In run order (the columns).
    pub implementations: Vec<String>,
    /// One row per case run by any implementation, sorted by case id.
    pub rows: Vec<CaseRow>,
}

impl Matrix {
    /// The matrix of a run; `None` for a run of fewer than two implementations, where interop
    /// says nothing.
    pub fn of(run: &Run) -> Option<Matrix> {
        if run.implementations.len() < 2 {
            return None;
        }
        let implementations: Vec<String> =
            run.implementations.iter().map(|i| i.name.clone()).collect();
        let column: BTreeMap<&str, usize> = implementations
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut rows: BTreeMap<&str, CaseRow> = BTreeMap::new();
        for r in &run.results {
            let Some(&col) = column.get(r.implementation.as_str()) else {
                continue;
            };
            let row = rows.entry(r.case.as_str()).or_insert_with(|| CaseRow {
                case: r.case.clone(),
                tier: r.tier,
                features: r.features.clone(),
                cells: vec![None; implementations.len()],
                interop: Interop::Unscored,
            });
            row.cells[col] = Some(Cell {
                status: r.status,
                known_failure: r.known_failure.is_some(),
            });
        }
        let rows = rows
            .into_values()
            .map(|mut row| {
                let statuses: Vec<Option<Status>> =
                    row.cells.iter().map(|c| c.map(|c| c.status)).collect();
                row.interop = Interop::of(&statuses);
                row
            })
            .collect();
        Some(Matrix {
            implementations,
            rows,
        })
    }

    /// Counts per tier.
    pub fn totals(&self) -> BTreeMap<Tier, InteropTally> {
        let mut out: BTreeMap<Tier, InteropTally> = BTreeMap::new();
        for row in &self.rows {
            out.entry(row.tier).or_default().add(row);
        }
        out
    }

    /// Counts per feature tag and tier, over required and optional cases (as the scores'
    /// feature matrix: informative cases are never scored).
    pub fn features(&self) -> BTreeMap<String, BTreeMap<Tier, InteropTally>> {
        let mut out: BTreeMap<String, BTreeMap<Tier, InteropTally>> = BTreeMap::new();
        for row in self.rows.iter().filter(|r| r.tier != Tier::Informative) {
            for f in &row.features {
                out.entry(f.clone())
                    .or_default()
                    .entry(row.tier)
                    .or_default()
                    .add(row);
            }
        }
        out
    }

    /// The case ids of one class, sorted.
    pub fn cases(&self, class: Interop) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|r| r.interop == class)
            .map(|r| r.case.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::results::{CaseResult, ImplInfo};

    /// A case result of one `load` check, not a known failure.
    fn result(imp: &str, id: &str, tier: Tier, status: Status) -> CaseResult {
        crate::score::tests::result(imp, id, tier, status, false)
    }

    fn run(names: &[&str], results: Vec<CaseResult>) -> Run {
        Run {
            implementations: names
                .iter()
                .map(|n| ImplInfo {
                    name: (*n).into(),
                    ..ImplInfo::default()
                })
                .collect(),
            results,
            ..Run::default()
        }
    }

    #[test]
    fn classes_by_hand() {
        use Status::*;
        // Both pass (a quality warning is a pass): interoperable.
        assert_eq!(
            Interop::of(&[Some(Pass), Some(QualityWarning)]),
            Interop::Interoperable
        );
        // One does not support it: no evidence, whatever the other did.
        assert_eq!(
            Interop::of(&[Some(Pass), Some(NotSupported)]),
            Interop::Unproven
        );
        assert_eq!(Interop::of(&[Some(Pass), None]), Interop::Unproven);
        assert_eq!(Interop::of(&[Some(Skip), Some(Pass)]), Interop::Unproven);
        // A failure anywhere wins, even next to an unsupported one.
        assert_eq!(
            Interop::of(&[Some(Crash), Some(NotSupported)]),
            Interop::Failing
        );
        assert_eq!(Interop::of(&[Some(Pass), Some(Fail)]), Interop::Failing);
        // A harness error is the suite's fault: not scored.
        assert_eq!(
            Interop::of(&[Some(HarnessError), Some(Skip)]),
            Interop::Unscored
        );
        assert_eq!(Interop::of(&[]), Interop::Unscored);
    }

    #[test]
    fn matrix_rows_are_sorted_and_count_by_tier_and_feature() {
        use Status::*;
        let r = run(
            &["b", "a"],
            vec![
                // Reverse id order on purpose: rows come out sorted.
                result("b", "k/x/3", Tier::Required, Pass),
                result("a", "k/x/3", Tier::Required, NotSupported),
                result("b", "k/x/1", Tier::Required, Pass),
                result("a", "k/x/1", Tier::Required, Pass),
                result("b", "k/x/2", Tier::Optional, Fail),
                result("a", "k/x/2", Tier::Optional, Fail),
                // Only `a` ran it: unproven.
                result("a", "k/x/4", Tier::Required, Pass),
                // An implementation outside the run's handshakes is ignored.
                result("z", "k/x/1", Tier::Required, Fail),
            ],
        );
        let m = Matrix::of(&r).expect("two implementations");
        let ids: Vec<&str> = m.rows.iter().map(|r| r.case.as_str()).collect();
        assert_eq!(ids, ["k/x/1", "k/x/2", "k/x/3", "k/x/4"]);
        // Columns in run order: b, then a.
        assert_eq!(m.rows[2].cells[0].map(|c| c.status), Some(Pass));
        assert_eq!(m.rows[2].cells[1].map(|c| c.status), Some(NotSupported));
        assert_eq!(m.rows[3].cells[0], None);
        let classes: Vec<Interop> = m.rows.iter().map(|r| r.interop).collect();
        assert_eq!(
            classes,
            [
                Interop::Interoperable,
                Interop::Failing,
                Interop::Unproven,
                Interop::Unproven
            ]
        );
        // Failing on both agrees; pass vs not supported and pass vs not run disagree.
        let disagree: Vec<bool> = m.rows.iter().map(CaseRow::disagree).collect();
        assert_eq!(disagree, [false, false, true, true]);
        let needs: Vec<bool> = m.rows.iter().map(CaseRow::needs_attention).collect();
        assert_eq!(needs, [false, true, true, true]);
        let t = m.totals();
        let req = &t[&Tier::Required];
        assert_eq!(
            (
                req.cases,
                req.interoperable,
                req.unproven,
                req.disagreements
            ),
            (3, 1, 2, 2)
        );
        assert_eq!(req.display(), "1/3, 2 unproven");
        assert_eq!(t[&Tier::Optional].display(), "0/1");
        let f = m.features();
        assert_eq!(f["shape.box"][&Tier::Required].cases, 3);
        assert_eq!(f["shape.box"][&Tier::Optional].failing, 1);
        assert_eq!(m.cases(Interop::Unproven), ["k/x/3", "k/x/4"]);
    }

    #[test]
    fn one_implementation_has_no_matrix() {
        let r = run(
            &["a"],
            vec![result("a", "k/x/1", Tier::Required, Status::Pass)],
        );
        assert_eq!(Matrix::of(&r), None);
    }

    fn status() -> impl Strategy<Value = Option<Status>> {
        prop_oneof![
            Just(None),
            proptest::sample::select(Status::ALL.to_vec()).prop_map(Some)
        ]
    }

    proptest! {
        /// The classes follow their definitions, the order of implementations does not matter,
        /// and interoperable is exactly "every implementation passed".
        #[test]
        fn classes_follow_the_definition(mut statuses in proptest::collection::vec(status(), 1..5)) {
            let class = Interop::of(&statuses);
            let pass = |s: &Option<Status>| s.is_some_and(Status::is_pass);
            let fail = |s: &Option<Status>| s.is_some_and(Status::is_failure);
            prop_assert_eq!(class == Interop::Interoperable, statuses.iter().all(pass));
            prop_assert_eq!(class == Interop::Failing, statuses.iter().any(fail));
            prop_assert_eq!(
                class == Interop::Unproven,
                statuses.iter().any(pass) && !statuses.iter().all(pass) && !statuses.iter().any(fail)
            );
            statuses.reverse();
            prop_assert_eq!(Interop::of(&statuses), class);
        }

        /// Tallies add up: every case is in exactly one class.
        #[test]
        fn tallies_partition_the_cases(rows in proptest::collection::vec(proptest::collection::vec(status(), 2..4), 0..20)) {
            let mut t = InteropTally::default();
            for (i, statuses) in rows.iter().enumerate() {
                let row = CaseRow {
                    case: format!("c/{i}"),
                    tier: Tier::Required,
                    features: vec![],
                    cells: statuses.iter().map(|s| s.map(|status| Cell { status, known_failure: false })).collect(),
                    interop: Interop::of(statuses),
                };
                t.add(&row);
            }
            let sum: u32 = Interop::ALL.iter().map(|c| t.count(*c)).sum();
            prop_assert_eq!(sum, t.cases);
            prop_assert_eq!(t.cases as usize, rows.len());
            prop_assert!(t.disagreements <= t.cases - t.interoperable);
        }
    }
}
