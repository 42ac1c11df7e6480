//! Hand-written cases: every example of the seeds, the hinged door of seed 002, the special
//! joint cases of seed 000, a control scene and an everything-at-once scene per profile.

mod actions;
pub(crate) mod common;
mod contact;
mod dynamics;
mod khr;
mod khr25;
mod khr26;
mod omi;
mod omi24;
mod reach;
mod vrm;
mod vrm1;

use crate::case::Case;

/// Every hand-written case, control cases first and everything-at-once cases last per profile.
pub fn all() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(khr::cases());
    v.extend(omi::cases());
    v.extend(vrm::cases());
    v.extend(vrm1::cases());
    v.extend(dynamics::cases());
    v.extend(omi24::cases());
    v.extend(khr25::cases());
    v.extend(khr26::cases());
    v.extend(actions::cases());
    v.extend(reach::cases());
    v.extend(contact::cases());
    v
}
