package ratelimit

import (
	"errors"
	"fmt"
	"time"
)

// validate reports every problem with a configuration at once.
func validate(limit int, period time.Duration, cfg Config) error {
	var errs []error
	if limit <= 0 {
		errs = append(errs, fmt.Errorf(msgLimitNotPositive, limit))
	}
	if period != PeriodTenSeconds && period != PeriodMinute {
		errs = append(errs, fmt.Errorf(msgUnsupportedPeriod, periodText(period)))
	}
	if cfg.scale < 1 {
		errs = append(errs, fmt.Errorf(msgScaleNotPositive, cfg.scale))
	}
	if cfg.now == nil {
		errs = append(errs, errors.New(msgNilClock))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("ratelimit: %w", err)
	}
	return nil
}

// periodText shows whole seconds the way the binding's config spells them.
func periodText(period time.Duration) string {
	if period%time.Second == 0 {
		return fmt.Sprint(int64(period / time.Second))
	}
	return period.String()
}
