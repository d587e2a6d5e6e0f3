import Foundation
import MarqueeCore
import MarqueeLedger

/// Proof of play for one screen: turns its presented timeline's events into one ledger record per
/// item shown, handed to the device's sink when the item leaves the screen. It hears every event on
/// the screen's delivery thread (never the present thread). Times become UTC once, at the item's
/// start, with the wall clock then in force; a step of the wall clock while it shows is recorded as
/// `clockStep`, not folded in.
package final class PlayLedger: @unchecked Sendable {
    /// What is known of an item on screen when its record opens.
    private struct Shown {
        var index: Int
        var url: String
        var title: String?
        var id: String?
    }

    private struct OpenPlay {
        var shown: Shown
        var startClock: Double
        /// Milliseconds since 1970, on the wall clock in force at the start.
        var startUTC: Int64
        var daypart: String?
        var config: String?
    }

    private let sink: PlayLedgerSink
    private let lock = NSLock()
    private let device: String
    private let screen: String
    /// The wall clock (the virtual one's with `--clock fast`) and the player's clock, read together.
    private let wallClock: @Sendable () -> Date
    private let clockNow: @Sendable () -> Double
    private let configDigest: @Sendable () -> String?

    private var open: OpenPlay?
    /// Why the item on screen will end, when something other than its `itemEnded` says so first.
    private var cut: String?
    /// The item whose record closed when the display went off, reopened when it comes back on.
    private var dark: Shown?
    private var daypart: String?

    /// A wall clock that moved this far from the presented timeline during a play was stepped.
    package static let clockStepThreshold = 0.5

    package init(sink: PlayLedgerSink, device: String, screen: String, wallClock: @escaping @Sendable () -> Date,
                 clockNow: @escaping @Sendable () -> Double, configDigest: @escaping @Sendable () -> String?) {
        self.sink = sink
        self.device = device
        self.screen = screen
        self.wallClock = wallClock
        self.clockNow = clockNow
        self.configDigest = configDigest
    }

    /// Takes each event in presentation order, `t` its player-clock time.
    package func observe(_ event: PlayerEvent, at t: Double) {
        lock.withLock {
            switch event {
            case .itemStarted(let index, let url, let title, let id):
                dark = nil
                cut = nil
                begin(Shown(index: index, url: url, title: title, id: id), at: t)
            case .itemEnded(let index, _, let reason, _):
                dark = nil
                guard let play = open, play.shown.index == index else { return }
                let ended = cut ?? (reason == .playbackEnded ? LedgerRecord.completed : reason.rawValue)
                close(play, at: t, ended: ended)
                cut = nil
            case .daypartChanged(let name, _, let immediately):
                if immediately && open != nil { cut = "daypartChanged" }
                daypart = name
            case .displayPowerChanged(on: false):
                guard let play = open else { return }
                close(play, at: t, ended: "displayOff")
                dark = play.shown
            case .displayPowerChanged(on: true):
                if let shown = dark { begin(shown, at: t) }
                dark = nil
            default:
                break
            }
        }
    }

    private func begin(_ shown: Shown, at t: Double) {
        open = OpenPlay(shown: shown, startClock: t, startUTC: utcMilliseconds(at: t), daypart: daypart, config: configDigest())
    }

    private func close(_ play: OpenPlay, at t: Double, ended: String) {
        open = nil
        let shownMilliseconds = max(0, UTCTimestamp.milliseconds(seconds: t - play.startClock))
        let endUTC = play.startUTC + shownMilliseconds
        let step = Double(utcMilliseconds(at: t) - endUTC) / 1000
        let stepped = abs(step) >= Self.clockStepThreshold ? step : nil
        let shown = play.shown
        let (device, screen) = (device, screen)
        sink.write { identity in
            LedgerRecord(id: UUID().uuidString.lowercased(), device: device, screen: screen, config: play.config,
                         daypart: play.daypart, item: identity.name(url: shown.url, id: shown.id), index: shown.index,
                         url: shown.url, title: shown.title, start: UTCTimestamp.text(milliseconds: play.startUTC),
                         end: UTCTimestamp.text(milliseconds: endUTC), seconds: Double(shownMilliseconds) / 1000,
                         ended: ended, clockStep: stepped)
        }
    }

    /// Player-clock time `t` on the wall clock read now.
    private func utcMilliseconds(at t: Double) -> Int64 {
        UTCTimestamp.milliseconds(seconds: wallClock().timeIntervalSince1970 - (clockNow() - t))
    }
}
