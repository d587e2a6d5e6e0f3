import Foundation
import MarqueeCore

/// The TV's side of displayOff/displayOn over HDMI-CEC: `<Standby>` to the TV; `<Image View On>`
/// to it and `<Active Source>` to all. CEC is slow (each message is tens of milliseconds on the
/// wire, a claim polls the bus) and a TV may not answer, so all of it runs on one thread of its
/// own: `setDisplayPower(on:)` only records the wish (the latest one wins) and returns at once,
/// on the present thread.
///
/// The thread opens the adapter and claims a Playback address once, at start. Every outcome is
/// one log line: the claim, each message sent, each message that did not get through. An adapter
/// that cannot be opened or claimed is one error line, after which the wishes are dropped quietly.
public final class CECDisplayPower: DisplayPowerSwitching, @unchecked Sendable {
    public let path: String
    private let osdName: String
    private let log: CECLog

    private let wishes = CECWishHandOff()

    /// Starts the thread, which opens `path` and claims an address.
    public init(path: String, osdName: String = "Marquee", log: CECLog) {
        self.path = path
        self.osdName = osdName
        self.log = log
        let thread = Thread { [self] in
            run()
            wishes.end()
        }
        thread.name = "marquee.cec"
        thread.start()
    }

    /// Never throws: the outcome is logged by the thread.
    public func setDisplayPower(on: Bool) throws {
        wishes.post(on)
    }

    /// On the way out: waits up to `seconds` for a wish not sent yet (a displayOff just before
    /// quitting), then ends the thread. A thread stuck in the driver is left behind.
    public func finish(waitingAtMost seconds: Double) {
        wishes.finish(waitingAtMost: seconds)
    }

    // MARK: The thread

    private func run() {
        let adapter: CECAdapter
        do {
            adapter = try CECAdapter(path: path)
            try adapter.becomeInitiator()
        } catch {
            let cause = switch error.code {
            case ENOTTY: "not a CEC adapter (\(error.message))"
            default: error.message
            }
            log.error("cec: cannot use \(path): \(cause); playing on without HDMI-CEC")
            return
        }
        guard adapter.canTransmit else {
            log.error("cec: \(path) (\(adapter.driver)) cannot claim addresses or transmit; playing on without HDMI-CEC")
            return
        }
        do {
            let claimed = try adapter.claimPlayback(osdName: osdName)
            let address = (try? adapter.physicalAddress()) ?? .invalid
            if let first = claimed.first, first == .broadcast {
                log.warning("cec: \(path): no Playback address is free on the bus; sending as \(first), physical address \(address)")
            } else if let first = claimed.first {
                log.info("cec: \(path) claimed \(first), physical address \(address)")
            } else {
                log.info("cec: \(path) has no physical address yet (no TV connected?); Playback is claimed once it has one")
            }
        } catch {
            if error.code == ENODEV { return gone(error) }
            log.error("cec: \(path): cannot claim a Playback address: \(error); playing on without HDMI-CEC")
            return
        }
        while let on = wishes.take() {
            let messages: [(CECLogicalAddress, CECPhysicalAddress) -> CECMessage] = on
                ? [{ from, _ in .imageViewOn(from: from) }, { from, address in .activeSource(from: from, physicalAddress: address) }]
                : [{ from, _ in .standby(from: from) }]
            for make in messages {
                if case .gone(let error) = send(make, on: adapter) { return gone(error) }
            }
        }
    }

    private enum Outcome { case done, gone(SystemError) }

    /// Sends one message from the address claimed now (it can change: a claim made on hotplug, or
    /// lost) and logs the outcome in one line.
    private func send(_ make: (CECLogicalAddress, CECPhysicalAddress) -> CECMessage, on adapter: CECAdapter) -> Outcome {
        let sample = make(.broadcast, .invalid)
        do {
            let address = try adapter.physicalAddress()
            guard let from = try adapter.claimedAddresses().addresses.first else {
                log.warning("cec: \(path): \(sample.summary) not sent: no logical address claimed (physical address \(address): is a TV connected?)")
                return .done
            }
            if sample.opcode == .activeSource && !address.isValid {
                log.warning("cec: \(path): \(sample.summary) not sent: no physical address (is a TV connected?)")
                return .done
            }
            let message = make(from, address)
            let status = try adapter.transmit(message)
            if let failure = status.failure {
                log.warning("cec: \(path): \(message.summary) \(failure)")
            } else {
                log.info("cec: sent \(message.summary)")
            }
        } catch where error.code == ENODEV {
            return .gone(error)
        } catch {
            log.warning("cec: \(path): \(sample.summary) not sent: \(error)")
        }
        return .done
    }

    private func gone(_ error: SystemError) {
        log.error("cec: \(path) is gone (\(error.message)); no more HDMI-CEC until marquee restarts")
    }
}

/// Where the CEC thread's lines go (the journal): one per claim, message or failure.
public struct CECLog: Sendable {
    public var info: @Sendable (String) -> Void
    public var warning: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void

    public init(info: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void,
                error: @escaping @Sendable (String) -> Void) {
        self.info = info
        self.warning = warning
        self.error = error
    }

    public static let silent = CECLog(info: { _ in }, warning: { _ in }, error: { _ in })
}
