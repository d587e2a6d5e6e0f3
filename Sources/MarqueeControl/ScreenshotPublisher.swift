import Dispatch
import Foundation
import MarqueeCore

/// Takes each screen's picture every `every` seconds (and soon after each connection), scales
/// and encodes it on a queue of its own and hands the file to `publish` (the MQTT node's queue,
/// retained, QoS 1). The present thread only copies its picture when asked (`screenshot`, between
/// frames); the scaling, the encoding and the network never run there. A screen whose last
/// picture is still being made is skipped, so a stuck player or a slow encoder never piles up
/// copies of the screen.
final class ScreenshotPublisher: @unchecked Sendable {
    private let settings: ScreenshotPublishing
    private let topic: String
    private let publish: @Sendable (_ topic: String, _ payload: [UInt8]) -> Void
    private let log: @Sendable (_ warning: Bool, _ line: String) -> Void
    private let queue = DispatchQueue(label: "marquee.mqtt.screenshots")
    /// On `queue`: the screens whose picture is being taken or encoded.
    private var busy: Set<Int> = []
    /// On `queue`: the last problem said for each screen, so an outage is one line, not one per picture.
    private var problems: [Int: String] = [:]
    private var timer: DispatchSourceTimer?

    /// `topic`: the node's prefix (`marquee/lobby`).
    init(settings: ScreenshotPublishing, topic: String, publish: @escaping @Sendable (String, [UInt8]) -> Void,
         log: @escaping @Sendable (Bool, String) -> Void) {
        self.settings = settings
        self.topic = topic
        self.publish = publish
        self.log = log
    }

    /// `TOPIC/screenshot`, or `TOPIC/screenshot/NAME` for a named screen.
    func topic(of screen: ScreenshotPublishing.Screen) -> String {
        screen.name.map { "\(topic)/screenshot/\($0)" } ?? "\(topic)/screenshot"
    }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + settings.every, repeating: settings.every)
        timer.setEventHandler { [weak self] in self?.takeAll() }
        timer.resume()
        queue.sync { self.timer = timer }
    }

    /// After a connection: a fresh picture soon, not at the next tick minutes away.
    func connected() {
        queue.asyncAfter(deadline: .now() + settings.settle) { [weak self] in self?.takeAll() }
    }

    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    /// On `queue`.
    private func takeAll() {
        guard timer != nil else { return }
        for (index, screen) in settings.screens.enumerated() where !busy.contains(index) {
            busy.insert(index)
            screen.player.screenshot { [weak self] canvas in
                guard let self else { return }
                queue.async { self.deliver(canvas, of: screen, index: index) }
            }
        }
    }

    /// On `queue`: scaled, encoded and handed to the node.
    private func deliver(_ canvas: Canvas?, of screen: ScreenshotPublishing.Screen, index: Int) {
        busy.remove(index)
        let label = screen.name.map { "screen \($0)" } ?? "the screen"
        guard let canvas else {
            say("mqtt: no screenshot of \(label) to publish: nothing is on screen, or the output cannot read its buffer", index: index)
            return
        }
        do {
            let image = try settings.encode(canvas, settings.width, settings.format)
            if problems.removeValue(forKey: index) != nil { log(false, "mqtt: screenshots of \(label) are published again") }
            publish(topic(of: screen), image.bytes)
        } catch {
            say("mqtt: screenshot of \(label) not published: \(error)", index: index)
        }
    }

    private func say(_ problem: String, index: Int) {
        guard problems[index] != problem else { return }
        problems[index] = problem
        log(true, problem)
    }
}
