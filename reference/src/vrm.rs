//! Reader and rules of the `vrm` profile family.

use crate::document::Document;
use crate::issue::Issues;
use crate::scene::Scene;

/// Read this profile's extensions from `doc` into `scene`, pushing every issue found.
pub fn read(_doc: &Document, _scene: &mut Scene, _issues: &mut Issues) {}
