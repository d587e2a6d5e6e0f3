/// The software volume: a linear gain from 0 to 1 with a mute that remembers the level, stepped by
/// volumeUp/volumeDown. Steps are counted in tenths so ten presses go exactly from 0 to 1.
public struct VolumeControl: Sendable, Equatable {
    /// The level, 0...1 (a config value between tenths is kept as given until stepped).
    public private(set) var volume: Double
    public private(set) var isMuted: Bool

    public init(volume: Double = 1, isMuted: Bool = false) {
        self.volume = Self.clamped(volume)
        self.isMuted = isMuted
    }

    /// The level in tenths: an in-between config value (0.35) steps to the neighbouring tenth.
    private var tenths: Double { volume * 10 }

    /// What samples are multiplied by.
    public var gain: Float { isMuted ? 0 : Float(volume) }

    /// Applies a volume command; false for any other command or when nothing changed.
    public mutating func apply(_ command: Command) -> Bool {
        let before = self
        switch command {
        case .volumeUp:
            volume = Self.clamped(((tenths + 1e-6).rounded(.down) + 1) / 10)
            isMuted = false
        case .volumeDown:
            volume = Self.clamped(((tenths - 1e-6).rounded(.up) - 1) / 10)
        case .toggleMute:
            isMuted.toggle()
        default:
            return false
        }
        return self != before
    }

    /// Sets the level (clamped to 0...1) and unmutes, as volumeUp does; false when nothing changed.
    public mutating func set(_ level: Double) -> Bool {
        let before = self
        volume = Self.clamped(level)
        isMuted = false
        return self != before
    }

    public mutating func set(muted: Bool) -> Bool {
        let before = isMuted
        isMuted = muted
        return isMuted != before
    }

    /// Into 0...1, rounded to a millionth so repeated tenths do not accumulate binary noise.
    static func clamped(_ value: Double) -> Double {
        guard value.isFinite else { return 1 }
        return (min(1, max(0, value)) * 1_000_000).rounded() / 1_000_000
    }
}
