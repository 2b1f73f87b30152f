//! What every step and lab has around it: its Hide and Show, its badge.

keys! { "frame";
    hide = "Hide";
    show = "Show";
    hidden = "Hidden. “Show” brings it back.";
    lab = "Lab";
}
