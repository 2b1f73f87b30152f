//! Every matrix and step on the page: titles, faces, heat maps, breakdowns of a clicked cell, the attention lines, the steps' own controls, and the core's words for them.

keys! { "views";
}
