-- 0019: reserved for the payments area (issue 37), which is being written beside this
-- branch and lands as 0019. This placeholder does nothing; it only keeps the numbers
-- without a gap (the build refuses one) so that the scoped keys can be 0020 as agreed.
-- When both branches meet, this file is deleted in favour of the payments migration
-- (the build then fails until it is: two files numbered 0019).
SELECT 1;
