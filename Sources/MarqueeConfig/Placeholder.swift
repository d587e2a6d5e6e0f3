enum MarqueeConfigPlaceholder {}
