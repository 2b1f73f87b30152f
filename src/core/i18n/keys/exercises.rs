//! Exercises: cards, hints, answers and results, the exercise maker, its link, embed and SCORM package, the Embed dialog, and the core's words for them.

keys! { "exercises";
}
