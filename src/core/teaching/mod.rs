//! The teaching around the pipeline: the labs' maths ([`labs`], [`sqrt_dk`], [`order`]) and
//! exercises ([`exercise`]).

pub mod exercise;
pub mod labs;
pub mod order;
pub mod sqrt_dk;
