//! Units of measure (BT-130) in UN/ECE Recommendation 20: crm-core's, which the API shows as
//! each line's `unit_code`, so that the e-invoice states what the API shows.

pub use crm_core::units::{is_code, unit_code};
