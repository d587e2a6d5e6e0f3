import Foundation
import MarqueeCore
import MarqueePlayer

/// The `status` reply's fields: AVPlayer's and AVPlayerItem's properties under their names, the
/// media controller's labels, the devices, and the access and error logs.
enum StatusReport {
    static func fields(_ snapshot: PlayerStatusSnapshot, devices: [String: any Sendable]) -> [String: Any] {
        let status = snapshot.playback
        let details = snapshot.details
        var fields: [String: Any] = [
            "state": status.state.rawValue,
            "loadState": status.loadState.rawValue,
            "rate": details.rate,
            "soundAtRate": details.soundAtRate.rawValue,
            "display": details.displayIsOn ? "on" : "off",
            "repeat": status.repeatMode.rawValue,
            "scaling": status.scaling.rawValue,
            "volume": status.volume,
            "muted": status.isMuted,
            "pauseAfterCurrentItem": details.pauseAfterCurrentItem,
            "actionAtItemEnd": details.actionAtItemEnd.rawValue,
            "itemCount": status.itemCount,
            "framesPresented": status.framesPresented,
            "framesDropped": status.framesDropped,
            "uptime": snapshot.secondsSinceStart,
            "screenSize": size(details.screenSize),
            "accessLog": status.accessLog.map { accessLogEntry($0, now: snapshot.secondsSinceStart) },
            "errorLog": status.errorLog.map { ["t": $0.t, "message": $0.message] as [String: Any] },
        ]
        if let lastError = status.lastError { fields["lastError"] = lastError }
        if details.isScheduled {
            // {"daypart": "lunch", "nextChange": "2026-11-26T14:00:00Z"}; a null daypart: nothing scheduled now.
            var schedule: [String: Any] = ["daypart": details.daypart ?? NSNull()]
            if let next = details.nextScheduleChange { schedule["nextChange"] = next.formatted(.iso8601) }
            fields["schedule"] = schedule
        }
        if let item = item(status, details) { fields["item"] = item }
        for (key, value) in devices { fields[key] = value }
        return fields
    }

    private static func item(_ status: PlaybackStatus, _ details: PlayerDetails) -> [String: Any]? {
        guard let index = status.itemIndex else { return nil }
        // The present thread's frame is the newest word on where playback is; the fold of the
        // events follows it by a moment.
        var status = status
        if let pts = details.framePTS { status.position = pts }
        var item: [String: Any] = [
            "index": index,
            "url": status.itemURL,
            "positionLabel": TimeLabel.position(status.elapsed),
            "durationLabel": TimeLabel.position(status.duration),
            "remainingLabel": TimeLabel.remaining(position: status.elapsed, duration: status.duration),
            "seekable": details.isSeekable,
            "stillImage": details.isStillImage,
        ]
        if let title = status.itemTitle { item["title"] = title }
        if let position = status.position { item["position"] = position.seconds }
        if let elapsed = status.elapsed { item["elapsed"] = elapsed.seconds }
        if let duration = status.duration { item["duration"] = duration.seconds }
        if let remaining = status.remaining { item["remaining"] = remaining.seconds }
        if let start = details.itemStart { item["start"] = start.seconds }
        if let end = details.itemEnd { item["end"] = end.seconds }
        if let natural = status.naturalSize { item["naturalSize"] = size(natural) }
        if let rect = details.presentationRect { item["presentationSize"] = size(PixelSize(width: rect.width, height: rect.height)) }
        // AVPlayerItem's buffer properties, from the reader's read-ahead.
        let readAhead = details.readAhead
        let stalled = status.loadState == .stalled
        item["playbackLikelyToKeepUp"] = readAhead.isLikelyToKeepUp && !stalled
        item["playbackBufferEmpty"] = stalled
        item["playbackBufferFull"] = readAhead.reachedEnd || readAhead.buffered >= readAhead.target
        let first = details.itemStart ?? status.firstFramePTS ?? .zero
        let last = details.itemEnd ?? details.mediaDuration
        if readAhead.reachedEnd, let last {
            item["loadedTimeRanges"] = [range(from: first, to: last)]
        } else if let position = status.position {
            item["loadedTimeRanges"] = [range(from: position, to: position + readAhead.buffered)]
        } else {
            item["loadedTimeRanges"] = [[String: Any]]()
        }
        item["seekableTimeRanges"] = details.isSeekable ? last.map { [range(from: first, to: $0)] } ?? [] : [[String: Any]]()
        return item
    }

    private static func accessLogEntry(_ entry: AccessLogEntry, now: Double) -> [String: Any] {
        var fields: [String: Any] = [
            "index": entry.index, "url": entry.url, "startedAt": entry.startedAt,
            "stalls": entry.stalls, "framesDropped": entry.framesDropped, "bytesRead": entry.bytesRead,
        ]
        if let ended = entry.endedAt { fields["endedAt"] = ended }
        if let reason = entry.finishReason { fields["finishReason"] = reason.rawValue }
        if let bitrate = entry.observedBitrate(now: now) { fields["observedBitrate"] = bitrate.rounded() }
        return fields
    }

    private static func range(from start: MediaTime, to end: MediaTime) -> [String: Any] {
        ["start": start.seconds, "duration": max(0, (end - start).seconds)]
    }

    private static func size(_ size: PixelSize) -> [String: Any] {
        ["width": size.width, "height": size.height]
    }
}
