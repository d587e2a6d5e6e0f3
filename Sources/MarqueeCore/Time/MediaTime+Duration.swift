extension MediaTime {
    /// A Swift `Duration` (real-time settings and waits) on the media timeline, to the nanosecond.
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, per: 1_000_000_000)
    }
}
