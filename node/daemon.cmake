# filled by the daemon work
