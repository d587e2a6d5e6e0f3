import Foundation
import MarqueeCore

extension PlayerStatusSnapshot {
    /// The `status` document's playback part: what the socket, MQTT and `marquee ctl status` show.
    /// The devices are the program's to add (`StatusDocument.adopt`).
    public var document: StatusDocument {
        let status = playback
        var document = StatusDocument(
            state: status.state, loadState: status.loadState, rate: details.rate, soundAtRate: details.soundAtRate,
            display: details.displayIsOn ? "on" : "off", repeatMode: status.repeatMode, scaling: status.scaling,
            volume: status.volume, muted: status.isMuted, pauseAfterCurrentItem: details.pauseAfterCurrentItem,
            actionAtItemEnd: details.actionAtItemEnd, itemCount: status.itemCount, framesPresented: status.framesPresented,
            framesDropped: status.framesDropped, uptime: secondsSinceStart, screenSize: details.screenSize,
            accessLog: status.accessLog.map { accessLogRecord($0) },
            errorLog: status.errorLog.map { StatusDocument.ErrorLogRecord(t: $0.t, message: $0.message) })
        document.lastError = status.lastError
        if details.isScheduled {
            document.schedule = StatusDocument.Schedule(daypart: details.daypart, nextChange: details.nextScheduleChange?.formatted(.iso8601))
        }
        document.item = item
        return document
    }

    private var item: StatusDocument.Item? {
        guard let index = playback.itemIndex else { return nil }
        // The present thread's frame is the newest word on where playback is; the fold of the
        // events follows it by a moment.
        var status = playback
        if let pts = details.framePTS { status.position = pts }
        // AVPlayerItem's buffer properties, from the reader's read-ahead.
        let readAhead = details.readAhead
        let stalled = status.loadState == .stalled
        let first = details.itemStart ?? status.firstFramePTS ?? .zero
        let last = details.itemEnd ?? details.mediaDuration
        let loaded: [StatusDocument.TimeRange] = if readAhead.reachedEnd, let last {
            [StatusDocument.TimeRange(from: first, to: last)]
        } else if let position = status.position {
            [StatusDocument.TimeRange(from: position, to: position + readAhead.buffered)]
        } else {
            []
        }
        var item = StatusDocument.Item(
            index: index, url: status.itemURL, positionLabel: TimeLabel.position(status.elapsed),
            durationLabel: TimeLabel.position(status.duration),
            remainingLabel: TimeLabel.remaining(position: status.elapsed, duration: status.duration),
            seekable: details.isSeekable, stillImage: details.isStillImage,
            playbackLikelyToKeepUp: readAhead.isLikelyToKeepUp && !stalled, playbackBufferEmpty: stalled,
            playbackBufferFull: readAhead.reachedEnd || readAhead.buffered >= readAhead.target,
            loadedTimeRanges: loaded,
            seekableTimeRanges: details.isSeekable ? last.map { [StatusDocument.TimeRange(from: first, to: $0)] } ?? [] : [])
        item.title = status.itemTitle
        item.position = status.position?.seconds
        item.elapsed = status.elapsed?.seconds
        item.duration = status.duration?.seconds
        item.remaining = status.remaining?.seconds
        item.start = details.itemStart?.seconds
        item.end = details.itemEnd?.seconds
        item.naturalSize = status.naturalSize
        item.presentationSize = details.presentationRect.map { PixelSize(width: $0.width, height: $0.height) }
        return item
    }

    private func accessLogRecord(_ entry: AccessLogEntry) -> StatusDocument.AccessLogRecord {
        StatusDocument.AccessLogRecord(index: entry.index, url: entry.url, startedAt: entry.startedAt, endedAt: entry.endedAt,
                                       finishReason: entry.finishReason, stalls: entry.stalls, framesDropped: entry.framesDropped,
                                       bytesRead: entry.bytesRead, observedBitrate: entry.observedBitrate(now: secondsSinceStart)?.rounded())
    }
}
