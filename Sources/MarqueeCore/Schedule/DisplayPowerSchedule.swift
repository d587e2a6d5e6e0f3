/// When the screen should be off (`display.power`).
public struct DisplayPowerSchedule: Sendable, Hashable {
    /// Windows from the time the screen goes off to the time it comes back on; nil: never by the clock.
    public var offWindows: Schedule?
    /// The screen is also off while nothing plays (no daypart, or none of its items in its window).
    public var offWhenIdle: Bool

    public init(offWindows: Schedule? = nil, offWhenIdle: Bool = false) {
        self.offWindows = offWindows
        self.offWhenIdle = offWhenIdle
    }

    public static let alwaysOn = DisplayPowerSchedule()
}
