//! Joint limit metrics [D-METRICS] evaluated from the world poses of two attachment frames.
//! (To be written: see the metrics helper's brief.)
