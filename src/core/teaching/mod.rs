//! The teaching around the pipeline: the labs' maths ([`labs`], [`sqrt_dk`], [`order`],
//! [`kv_cache`], [`flash`]), the story the numbers tell ([`story`]) and exercises ([`exercise`]).

pub mod exercise;
pub mod flash;
pub mod kv_cache;
pub mod labs;
pub mod order;
pub mod sqrt_dk;
pub mod story;
