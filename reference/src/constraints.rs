//! VRM node constraint evaluation [D-VRM-*].
//! (To be written: see the VRM helper's brief.)
