//! Expected interpretation of a scene: what a conforming importer must end up with.
//! (To be written: see the interpretation helper's brief.)
