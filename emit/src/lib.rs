//! Firmware headers, JSON and reports
