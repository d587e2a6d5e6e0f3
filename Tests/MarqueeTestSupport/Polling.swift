import Foundation

/// Polls `done` every 50 ms until it holds (true) or `seconds` pass (its last answer).
public func waitUntil(seconds: Double, _ done: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if done() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return done()
}
