import MarqueeCore

/// One thing read from an evdev device that matters to the player.
enum EvdevReport: Sendable, Equatable {
    case key(KeyEvent)
    /// SYN_DROPPED: the kernel's buffer overflowed and events were lost; what follows until the
    /// resync ends brings key states up to date.
    case eventsDropped

    // Kernel ABI values (linux/input-event-codes.h); stable, and spelled here so the translation
    // is testable without a device.
    static let typeSyn: UInt16 = 0x00
    static let typeKey: UInt16 = 0x01
    static let synDropped: UInt16 = 3

    /// Translates one input_event. EV_KEY values: 0 release, 1 press, 2 autorepeat. Events read in
    /// libevdev's sync mode (after SYN_DROPPED) are marked as resync: they restate key states, the
    /// user did not just press anything. Everything else (EV_SYN reports, EV_MSC scan codes, LEDs,
    /// relative motion) is nil.
    static func translate(type: UInt16, code: UInt16, value: Int32, time: MediaTime, isResync: Bool) -> EvdevReport? {
        if type == typeSyn && code == synDropped { return .eventsDropped }
        guard type == typeKey else { return nil }
        let action: KeyEvent.Action
        switch value {
        case 0: action = .release
        case 1: action = .press
        case 2: action = .autorepeat
        default: return nil
        }
        return .key(KeyEvent(code: code, action: action, time: time, isResync: isResync))
    }

    /// A timeval (CLOCK_MONOTONIC, as the device is told to stamp) as media time.
    static func time(seconds: Int, microseconds: Int) -> MediaTime {
        MediaTime(Int64(seconds) * 1_000_000 + Int64(microseconds), per: 1_000_000)
    }
}
